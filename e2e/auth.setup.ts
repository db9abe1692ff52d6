import { type BrowserContext, expect, test as setup } from '@playwright/test';
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
 * Signs in as the first admin (the webServer sets CONSOLE_ADMIN_EMAIL/PASSWORD), adds a support
 * and a viewer operator through the operators page, signs in as each and saves the three browser
 * states under e2e/.auth/. Re-runnable: an operator who exists already is kept.
 */
setup('admin signs in and adds a support and a viewer operator', async ({ page }) => {
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
    if ((await row.count()) > 0) continue;
    const form = page.getByRole('form', { name: 'Add an operator' });
    await form.getByLabel('Email').fill(credentials.email);
    await form.getByLabel('Name').fill(credentials.name);
    await form.getByLabel('Initial password').fill(credentials.password);
    await form.getByLabel('Role').selectOption(role);
    await form.getByRole('button', { name: 'Add operator' }).click();
    await expect(form.getByRole('status')).toHaveText(`${credentials.email} can sign in now.`);
    await expect(row).toContainText(role);
  }
});

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
