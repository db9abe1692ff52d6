import { randomUUID } from 'node:crypto';
import { adminCredentials, adminState } from '../support/auth-states';
import { expect, test } from '../support/fixtures';
import { receivedMail } from '../support/mailbox';
import { rememberSecrets } from '../support/seen-secrets';

test.use({ storageState: adminState });

// The run's console has SMTP_URL pointing at the run's own SMTP server (playwright.config.ts):
// an operator the admin adds gets their link by email, and the email's link lets them in.
test('an invitation email reaches the operator, and its link lets them choose a password and come in', async ({
  page,
  browser,
}) => {
  test.setTimeout(120_000);
  const email = `emailed-${randomUUID().slice(0, 8)}@invitations.example`;
  await page.goto('/operators');
  const form = page.getByRole('form', { name: 'Add an operator' });
  await form.getByLabel('Email').fill(email);
  await form.getByLabel('Name').fill('Emailed operator');
  await form.getByLabel('Role').selectOption('support');
  await form.getByRole('button', { name: 'Invite operator' }).click();

  // The admin reads that it was emailed, and still has the link to copy.
  const dialog = page.getByRole('dialog', { name: `Invitation link for ${email}` });
  await expect(dialog).toContainText(`An email with this link was sent to ${email}.`);
  await expect(dialog.getByRole('alert')).toHaveCount(0);
  const shown = (await dialog.getByTestId('secret-value').textContent()) ?? '';
  rememberSecrets(shown, new URL(shown).hash.slice(1));
  await dialog.getByRole('button', { name: 'Done' }).click();
  await expect(dialog).toHaveCount(0);

  const message = await receivedMail(email);
  expect(message.subject).toBe('Your invitation to the User Group Console');
  expect(message.from?.value[0]?.address).toBe('console@e2e.example');
  expect(message.text).toContain(
    `(${adminCredentials.email}) invited you to the User Group Console as support.`,
  );
  expect(message.text).toMatch(/works once, until .+ UTC/);
  const link = /http:\/\/\S+\/invitation#[\w-]{43}/.exec(message.text ?? '')?.[0] ?? '';
  expect(link).toBe(shown);

  // Opened from the email, in a browser of nobody.
  const context = await browser.newContext({ storageState: { cookies: [], origins: [] } });
  try {
    const invited = await context.newPage();
    await invited.goto(link);
    await expect(invited).toHaveURL(/\/invitation$/);
    const choose = invited.getByRole('form', { name: 'Choose your password' });
    await expect(choose).toContainText(`You are invited as ${email}, support.`);
    const password = `emailed-password-${randomUUID()}`;
    rememberSecrets(password);
    await choose.getByLabel('Password', { exact: true }).fill(password);
    await choose.getByLabel('Repeat the password').fill(password);
    await choose.getByRole('button', { name: 'Set password and sign in' }).click();
    await expect(invited.getByTestId('operator-role')).toHaveText('support', { timeout: 30_000 });
    await expect(invited.getByTestId('operator-email')).toHaveText(email);
  } finally {
    await context.close();
  }

  await page.reload();
  const row = page.getByTestId('operator-row').filter({ hasText: email });
  await expect(row.getByTestId('operator-row-invited')).toHaveCount(0);
});
