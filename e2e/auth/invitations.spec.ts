import { randomUUID } from 'node:crypto';
import type { Browser, Page } from '@playwright/test';
import { apiAs } from '../support/api';
import { adminState } from '../support/auth-states';
import { expectNoSeriousA11yViolations } from '../support/axe';
import { expireInvitations } from '../support/console-sessions';
import { expect, test } from '../support/fixtures';
import { inviteAndAccept } from '../support/invitations';
import { rememberSecrets } from '../support/seen-secrets';

test.use({ storageState: adminState });

const nobody = { storageState: { cookies: [], origins: [] } };
const newEmail = (prefix: string) => `${prefix}-${randomUUID().slice(0, 8)}@invitations.example`;

/** Invites through the operators page; answers the link the dialog shows once (copied, then revealed). */
async function inviteThroughPage(page: Page, email: string, role: 'viewer' | 'support'): Promise<string> {
  await page.goto('/operators');
  const form = page.getByRole('form', { name: 'Add an operator' });
  await form.getByLabel('Email').fill(email);
  await form.getByLabel('Name').fill('Invited operator');
  await form.getByLabel('Role').selectOption(role);
  const invite = form.getByRole('button', { name: 'Invite operator' });
  await invite.click();
  const link = await readLinkDialog(page, email);
  // Done gives the focus back to what opened the dialog.
  await expect(invite).toBeFocused();
  return link;
}

async function readLinkDialog(page: Page, email: string): Promise<string> {
  const dialog = page.getByRole('dialog', { name: `Invitation link for ${email}` });
  await expect(dialog).toContainText('shown only now');
  await dialog.getByRole('button', { name: 'Copy' }).click();
  await expect(dialog.getByRole('button', { name: 'Copied' })).toBeVisible();
  // Read from the field (the clipboard of a background page may never answer).
  // Shown at once: it is meant to be passed on.
  await expect(dialog.getByRole('button', { name: 'Hide' })).toBeVisible();
  const link = (await dialog.getByTestId('secret-value').textContent()) ?? '';
  rememberSecrets(link, new URL(link).hash.slice(1));
  expect(link).toMatch(/\/invitation#[\w-]{43}$/);
  await expectNoSeriousA11yViolations(page, 'invitation link dialog');
  await dialog.getByRole('button', { name: 'Done' }).click();
  await expect(dialog).toHaveCount(0);
  // Never shown again: the page holds no link any more.
  await expect(page.getByText(link)).toHaveCount(0);
  return link;
}

async function openLink(browser: Browser, link: string) {
  const context = await browser.newContext(nobody);
  const page = await context.newPage();
  await page.goto(link);
  return page;
}

test.beforeEach(async ({ context }) => {
  // Each journey opens browsers of its own besides the admin's.
  test.setTimeout(240_000);
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
});

test('an invited operator sets their own password by keyboard alone and is in; the link then no longer works', async ({
  page,
  browser,
}) => {
  const email = newEmail('accept');
  const link = await inviteThroughPage(page, email, 'viewer');
  const row = page.getByTestId('operator-row').filter({ hasText: email });
  await expect(row.getByTestId('operator-row-invited')).toContainText(/Invited \(expires .+ UTC\)/);

  const invited = await openLink(browser, link);
  // The secret left the address bar (and the history) once read.
  await expect(invited).toHaveURL(/\/invitation$/);
  const form = invited.getByRole('form', { name: 'Choose your password' });
  await expect(form).toContainText(`You are invited as ${email}, viewer.`);
  await expectNoSeriousA11yViolations(invited, 'invitation page');
  const password = `own-password-${randomUUID()}`;
  rememberSecrets(password);
  // Keyboard only: Tab to each field, type, Enter.
  await invited.keyboard.press('Tab');
  await expect(form.getByLabel('Password', { exact: true })).toBeFocused();
  await invited.keyboard.type('too-short');
  await invited.keyboard.press('Enter');
  await expect(form.getByText('must be at least 12 characters')).toBeVisible();
  await form.getByLabel('Password', { exact: true }).focus();
  await invited.keyboard.press('ControlOrMeta+A');
  await invited.keyboard.type(password);
  await invited.keyboard.press('Tab');
  await expect(form.getByLabel('Repeat the password')).toBeFocused();
  await invited.keyboard.type(password);
  await invited.keyboard.press('Enter');
  await expect(invited.getByTestId('operator-role')).toHaveText('viewer', { timeout: 30_000 });
  await expect(invited.getByTestId('operator-email')).toHaveText(email);
  await invited.context().close();

  await page.reload();
  await expect(row.getByTestId('operator-row-invited')).toHaveCount(0);

  const again = await openLink(browser, link);
  await expect(again.getByRole('main').getByRole('alert')).toHaveText(
    'This invitation has been used already. Sign in with the password you chose.',
  );
  await expectNoSeriousA11yViolations(again, 'used invitation');
  await again.context().close();
});

test('a new link voids the old one at once; an expired link is refused; revoking removes the operator', async ({
  page,
  browser,
}) => {
  const email = newEmail('resend');
  const first = await inviteThroughPage(page, email, 'support');
  const row = page.getByTestId('operator-row').filter({ hasText: email });
  const sendAgain = row.getByRole('button', { name: 'Send a new link' });
  await sendAgain.click();
  const confirm = page.getByRole('dialog', { name: `Send a new link to ${email}?` });
  await expectNoSeriousA11yViolations(page, 'send a new link dialog');
  await confirm.getByRole('button', { name: 'Make a new link' }).click();
  const second = await readLinkDialog(page, email);
  await expect(sendAgain).toBeFocused();
  expect(second).not.toBe(first);

  const old = await openLink(browser, first);
  await expect(old.getByRole('main').getByRole('alert')).toHaveText(
    'This invitation link was replaced or withdrawn. Ask an admin of the console for a new one.',
  );
  await old.context().close();

  await expireInvitations(email);
  await page.reload();
  await expect(row.getByTestId('operator-row-invited')).toHaveText('Invitation expired');
  const expired = await openLink(browser, second);
  await expect(expired.getByRole('main').getByRole('alert')).toHaveText(
    'This invitation link has expired. Ask an admin of the console for a new one.',
  );
  await expectNoSeriousA11yViolations(expired, 'expired invitation');
  await expired.context().close();

  await row.getByRole('button', { name: 'Revoke invitation' }).click();
  const revoke = page.getByRole('dialog', { name: `Revoke the invitation of ${email}?` });
  await expectNoSeriousA11yViolations(page, 'revoke invitation dialog');
  await revoke.getByRole('button', { name: 'Revoke invitation' }).click();
  await expect(row).toHaveCount(0);
});

test('a link without its secret, one the console never made, or opened while signed in, says so', async ({
  page,
  browser,
}) => {
  await page.goto(`/invitation#${'x'.repeat(43)}`);
  await expect(page.getByRole('main').getByRole('alert')).toContainText(
    'You are signed in as admin@e2e.example. Sign out first',
  );
  const bare = await openLink(browser, '/invitation');
  await expect(bare.getByRole('main').getByRole('alert')).toContainText('needs the whole invitation link');
  await bare.context().close();
  const made = await openLink(browser, `/invitation#${'x'.repeat(43)}`);
  await expect(made.getByRole('main').getByRole('alert')).toContainText('not one the console made');
  await made.context().close();
});

test('an admin ends every session of an operator, after confirming: their browser is signed out', async ({
  page,
  browser,
}) => {
  const email = newEmail('sessions');
  const password = `own-password-${randomUUID()}`;
  const admin = await apiAs(adminState);
  try {
    await inviteAndAccept(admin, { email, name: 'Many sessions', role: 'viewer', password });
  } finally {
    await admin.dispose();
  }
  const theirs = await browser.newContext(nobody);
  const theirPage = await theirs.newPage();
  await theirPage.goto('/sign-in');
  const signIn = theirPage.getByRole('form', { name: 'Sign in' });
  await signIn.getByLabel('Email').fill(email);
  await signIn.getByLabel('Password').fill(password);
  await signIn.getByRole('button', { name: 'Sign in' }).click();
  await expect(theirPage.getByTestId('operator-role')).toHaveText('viewer', { timeout: 30_000 });

  await page.goto('/operators');
  const row = page.getByTestId('operator-row').filter({ hasText: email });
  await row.getByRole('button', { name: 'End all sessions' }).click();
  const dialog = page.getByRole('dialog', { name: `End every session of ${email}?` });
  await expectNoSeriousA11yViolations(page, 'end sessions dialog');
  await dialog.getByRole('button', { name: 'End sessions' }).click();
  await expect(row.getByRole('status')).toHaveText(`Ended 1 session of ${email}.`);

  await theirPage.goto('/audit');
  await expect(theirPage).toHaveURL(/\/sign-in\?next=/);
  await theirs.close();
});

for (const screen of [
  { name: 'phone', viewport: { width: 375, height: 667 } },
  { name: 'laptop', viewport: { width: 1280, height: 800 } },
])
  test.describe(`on a ${screen.name}`, () => {
    test.use({ viewport: screen.viewport });

    test('the one-time link is not lost to Escape or a click outside: the dialog asks first until it is copied', async ({
      page,
    }) => {
      for (const copyFirst of [false, true]) {
        const email = newEmail('escape');
        await page.goto('/operators');
        const form = page.getByRole('form', { name: 'Add an operator' });
        await form.getByLabel('Email').fill(email);
        await form.getByLabel('Name').fill('Escaping operator');
        await form.getByRole('button', { name: 'Invite operator' }).click();
        const dialog = page.getByRole('dialog', { name: `Invitation link for ${email}` });
        const link = (await dialog.getByTestId('secret-value').textContent()) ?? '';
        rememberSecrets(link, new URL(link).hash.slice(1));
        if (copyFirst) {
          await dialog.getByRole('button', { name: 'Copy' }).click();
          await expect(dialog.getByRole('button', { name: 'Copied' })).toBeVisible();
          // Copied: Escape closes at once.
          await page.keyboard.press('Escape');
          await expect(dialog).toHaveCount(0);
          continue;
        }
        await page.keyboard.press('Escape');
        const question = dialog.getByRole('alert');
        await expect(question).toContainText('Close without copying the link?');
        await expect(dialog.getByTestId('secret-value')).toHaveText(link);
        const keep = dialog.getByRole('button', { name: 'Keep the link open' });
        await expect(keep).toBeFocused();
        await expectNoSeriousA11yViolations(
          page,
          `the invitation dialog asking before closing on a ${screen.name}`,
        );
        await page.screenshot({ path: `/tmp/wt-day-shots/invitation-ask-${screen.name}.png` });
        await keep.click();
        await expect(question).toHaveCount(0);
        // A click outside the dialog asks as well.
        await page.mouse.click(2, 2);
        await expect(question).toBeVisible();
        await dialog.getByRole('button', { name: 'Close without copying' }).click();
        await expect(dialog).toHaveCount(0);
        await expect(page.getByText(link)).toHaveCount(0);
      }
    });
  });
