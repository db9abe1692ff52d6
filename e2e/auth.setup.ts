import { type BrowserContext, expect, type Page, test as setup } from '@playwright/test';
import {
  adminCredentials,
  adminState,
  type Credentials,
  supportCredentials,
  supportState,
  viewerCredentials,
  viewerState,
} from './support/auth-states';
import { rememberSecrets } from './support/seen-secrets';
import { signInThroughPage } from './support/sign-in';

/**
 * Signs in as the first admin (the webServer sets CONSOLE_ADMIN_EMAIL/PASSWORD), invites a support
 * and a viewer operator through the operators page, accepts each invitation link in a browser of
 * nobody with the operator's own password, signs in as each and saves the three browser states
 * under e2e/.auth/. Re-runnable: an operator who exists already is kept.
 */
setup('admin signs in and invites a support and a viewer operator, who accept', async ({ page, browser }) => {
  // Two invitations through the page, each accepted in a browser of its own: slow on a loaded machine.
  setup.setTimeout(180_000);
  await page.goto('/');
  await expect(page).toHaveURL(/\/sign-in\?next=%2F$/);
  await signInThroughPage(page, adminCredentials);
  await expect(page.getByTestId('operator-role')).toHaveText('admin');
  await page.context().storageState({ path: adminState });
  await rememberSessionCookies(page.context());

  await page.getByRole('link', { name: 'Operators' }).click();
  await expect(page.getByRole('heading', { name: 'Operators', level: 1 })).toBeVisible();
  for (const [credentials, role] of [
    [supportCredentials, 'support'],
    [viewerCredentials, 'viewer'],
  ] as const) {
    const row = page.getByTestId('operator-row').filter({ hasText: credentials.email });
    const invitedBefore = row.getByTestId('operator-row-invited');
    if ((await row.count()) > 0 && (await invitedBefore.count()) === 0) continue;
    if ((await row.count()) > 0) {
      // Invited by an earlier run that stopped before accepting: a new link.
      await row.getByRole('button', { name: 'Send a new link' }).click();
      await page.getByRole('dialog').getByRole('button', { name: 'Make a new link' }).click();
    } else {
      const form = page.getByRole('form', { name: 'Add an operator' });
      await form.getByLabel('Email').fill(credentials.email);
      await form.getByLabel('Name').fill(credentials.name);
      await form.getByLabel('Role').selectOption(role);
      await form.getByRole('button', { name: 'Invite operator' }).click();
    }
    const link = await shownInvitationLink(page, credentials.email);
    await expect(row.getByTestId('operator-row-invited')).toContainText('Invited (expires');

    const context = await browser.newContext({ storageState: { cookies: [], origins: [] } });
    const invited = await context.newPage();
    await invited.goto(link);
    const choose = invited.getByRole('form', { name: 'Choose your password' });
    await expect(choose).toContainText(credentials.email);
    await choose.getByLabel('Password', { exact: true }).fill(credentials.password);
    await choose.getByLabel('Repeat the password').fill(credentials.password);
    await choose.getByRole('button', { name: 'Set password and sign in' }).click();
    // Signed in: the console's first page, rendered for the new session (slow on a loaded machine).
    await expect(invited.getByTestId('operator-role')).toHaveText(role, { timeout: 30_000 });
    await context.close();
    await page.reload();
    await expect(row.getByTestId('operator-row-invited')).toHaveCount(0);
  }
});

/** The link the invitation dialog shows once (in clear): read, remembered as a secret, closed. */
async function shownInvitationLink(page: Page, email: string): Promise<string> {
  const dialog = page.getByRole('dialog', { name: `Invitation link for ${email}` });
  const link = (await dialog.getByTestId('secret-value').textContent()) ?? '';
  rememberSecrets(link, new URL(link).hash.slice(1));
  await dialog.getByRole('button', { name: 'Done' }).click();
  await expect(dialog).toHaveCount(0);
  return link;
}

for (const [credentials, role, state] of [
  [supportCredentials, 'support', supportState],
  [viewerCredentials, 'viewer', viewerState],
] as Array<[Credentials, string, string]>) {
  setup(`${role} signs in`, async ({ browser }) => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await signInThroughPage(page, credentials);
    await expect(page.getByTestId('operator-role')).toHaveText(role);
    await context.storageState({ path: state });
    await rememberSessionCookies(context);
    await context.close();
  });
}

setup.afterAll(() => {
  rememberSecrets(adminCredentials.password, supportCredentials.password, viewerCredentials.password);
});

/** A session cookie is `<token>.<signature>`: both the whole value and the token are secrets. */
async function rememberSessionCookies(context: BrowserContext) {
  for (const cookie of await context.cookies()) {
    const value = decodeURIComponent(cookie.value);
    rememberSecrets(value, value.split('.')[0]);
  }
}
