import { randomUUID } from 'node:crypto';
import type { Page } from '@playwright/test';
import { freshCode } from '../lib/testing/authenticator-app';
import { apiAs } from './support/api';
import { adminState } from './support/auth-states';
import { expectNoSeriousA11yViolations } from './support/axe';
import { ageSessionsPastStepUp } from './support/console-sessions';
import { expect, test } from './support/fixtures';
import { inviteAndAccept } from './support/invitations';
import { rememberSecrets } from './support/seen-secrets';

// An operator's second factor and the production step-up, in Chromium against the run's console:
// codes are computed here from the key the account page shows, as an authenticator app would.
test.use({ storageState: { cookies: [], origins: [] } });

const PASSWORD = 'two-factor-e2e-password';

/** A new support operator, added by the admin through the API. */
async function newOperator(prefix: string): Promise<string> {
  const email = `${prefix}-${randomUUID().slice(0, 8)}@two-factor.example`;
  const admin = await apiAs(adminState);
  try {
    await inviteAndAccept(admin, { email, name: prefix, role: 'support', password: PASSWORD });
  } finally {
    await admin.dispose();
  }
  return email;
}

// The console takes each code once, the enrolment's first included: every use needs a fresh one.
const codeFor = freshCode;

async function signInWithPassword(page: Page, email: string) {
  await page.goto('/sign-in');
  const form = page.getByRole('form', { name: 'Sign in' });
  await form.getByLabel('Email').fill(email);
  await form.getByLabel('Password').fill(PASSWORD);
  await form.getByRole('button', { name: 'Sign in' }).click();
}

/** Sets up the app on the account page; answers its key and the backup codes shown. */
async function enrol(page: Page): Promise<{ key: string; backupCodes: string[] }> {
  await page.goto('/account');
  await page.getByRole('button', { name: 'Set up an authenticator app' }).click();
  const password = page.getByRole('form', { name: 'Set up an authenticator app' });
  await password.getByLabel('Your password').fill(PASSWORD);
  await password.getByRole('button', { name: 'Continue' }).click();
  await expect(page.getByRole('img', { name: 'QR code of the authenticator key' })).toBeVisible();
  const key = (await page.getByRole('definition').locator('code').textContent()) ?? '';
  await expectNoSeriousA11yViolations(page, 'account: scan the QR code');
  const confirm = page.getByRole('form', { name: 'Confirm the authenticator app' });
  await confirm.getByLabel('Code from the app').fill('000000');
  await confirm.getByRole('button', { name: 'Turn it on' }).click();
  await expect(confirm.getByText(/is not the code your app shows now/)).toBeVisible();
  await confirm.getByLabel('Code from the app').fill(await codeFor(key));
  await confirm.getByRole('button', { name: 'Turn it on' }).click();
  const codes = page.getByRole('region', { name: 'Backup codes' });
  await expect(codes.getByRole('listitem')).toHaveCount(10);
  const backupCodes = await codes.getByRole('listitem').allTextContents();
  rememberSecrets(key.replace(/\s+/g, ''), ...backupCodes);
  await codes.getByRole('button', { name: 'I have saved them' }).click();
  await expect(page.getByText(/^On\./)).toBeVisible();
  return { key, backupCodes };
}

async function signOut(page: Page) {
  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page).toHaveURL(/\/sign-in/);
}

test('enrols an authenticator app, then signs in with its code, and with a backup code once', async ({
  page,
}) => {
  const email = await newOperator('totp');
  await signInWithPassword(page, email);
  await expect(page.getByTestId('operator-email')).toHaveText(email);
  const { key, backupCodes } = await enrol(page);
  await signOut(page);

  // The password alone is not enough now: the code step follows.
  await signInWithPassword(page, email);
  const second = page.getByRole('form', { name: 'Second factor' });
  await expect(second.getByLabel('Authenticator code')).toBeFocused();
  await expectNoSeriousA11yViolations(page, 'sign-in: the second factor');
  await second.getByLabel('Authenticator code').fill(await codeFor(key));
  await second.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByTestId('operator-email')).toHaveText(email);
  await signOut(page);

  const withBackupCode = async () => {
    await signInWithPassword(page, email);
    await second.getByRole('button', { name: 'Use a backup code instead' }).click();
    await second.getByLabel('Backup code').fill(backupCodes[0] ?? '');
    await second.getByRole('button', { name: 'Sign in' }).click();
  };
  await withBackupCode();
  await expect(page.getByTestId('operator-email')).toHaveText(email);
  await signOut(page);
  await withBackupCode();
  await expect(second.getByRole('alert')).toContainText('not one of your unused backup codes');
});

test('a Customer reveal after the step-up window asks again, by keyboard, and goes on; Testing does not ask', async ({
  page,
}) => {
  const email = await newOperator('stepup');
  await signInWithPassword(page, email);
  await expect(page.getByTestId('operator-email')).toHaveText(email);
  const id = `step-up-${randomUUID().slice(0, 8)}`;
  for (const slug of ['customer', 'testing']) {
    const created = await page.request.post(`/api/user-groups/${slug}/get-or-create`, {
      data: { user_group_id: id },
      headers: { origin: new URL(page.url()).origin },
    });
    expect(created.status()).toBe(200);
    rememberSecrets(((await created.json()) as { user_group: { token: string } }).user_group.token);
  }
  await ageSessionsPastStepUp(email);

  // Testing, the sandbox, never asks.
  await page.goto(`/testing/groups/${id}`);
  await page.getByRole('region', { name: 'Token' }).getByRole('button', { name: 'Show token' }).click();
  await expect(
    page.getByRole('region', { name: 'Token' }).getByRole('group', { name: 'Token' }),
  ).toBeVisible();
  await expect(page.getByRole('dialog')).toHaveCount(0);

  // Customer asks; the dialog is answered by keyboard alone, and the reveal goes on.
  await page.goto(`/customer/groups/${id}`);
  const panel = page.getByRole('region', { name: 'Token' });
  await panel.getByRole('button', { name: 'Show token' }).focus();
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog', { name: 'Confirm it’s you' });
  await expect(dialog.getByLabel('Your password')).toBeFocused();
  await expectNoSeriousA11yViolations(page, 'step-up dialog');
  await page.keyboard.type('not-the-password');
  await page.keyboard.press('Enter');
  await expect(dialog.getByText('is not your current password')).toBeVisible();
  await dialog.getByLabel('Your password').fill('');
  await dialog.getByLabel('Your password').focus();
  await page.keyboard.type(PASSWORD);
  await page.keyboard.press('Enter');
  await expect(dialog).toHaveCount(0);
  await expect(panel.getByRole('group', { name: 'Token' })).toBeVisible();

  // Confirmed: the next Customer action within the window does not ask.
  await page.reload();
  await panel.getByRole('button', { name: 'Show token' }).click();
  await expect(panel.getByRole('group', { name: 'Token' })).toBeVisible();
  await expect(page.getByRole('dialog')).toHaveCount(0);
});

test('the server refuses a Customer rotation with a stale authentication, whatever the page does', async ({
  page,
}) => {
  const email = await newOperator('stale');
  await signInWithPassword(page, email);
  await expect(page.getByTestId('operator-email')).toHaveText(email);
  await ageSessionsPastStepUp(email);
  const answer = await page.request.post('/api/user-groups/customer/rotate', {
    data: { current_token: 'f'.repeat(64) },
    headers: { origin: new URL(page.url()).origin },
  });
  expect(answer.status()).toBe(403);
  expect(((await answer.json()) as { error: { code: string } }).error.code).toBe('step_up_required');
});
