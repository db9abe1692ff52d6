import { randomUUID } from 'node:crypto';
import { test as apiTest, expect as baseExpect } from '@playwright/test';
import { apiAs, postConsole } from '../support/api';
import { adminCredentials, adminState } from '../support/auth-states';
import { expect, test } from '../support/fixtures';
import { inviteAndAccept } from '../support/invitations';
import { rememberSecrets } from '../support/seen-secrets';
import { consoleUrl } from '../support/servers';
import { signInThroughPage } from '../support/sign-in';

/** A browser context of nobody: the project's default state is the support operator's. */
const signedOut = { storageState: { cookies: [], origins: [] } };

/** A throwaway operator, invited through the API by the admin, who accepted the link. */
async function addOperator(role: 'viewer' | 'support') {
  const credentials = {
    email: `temp-${randomUUID().slice(0, 8)}@e2e.example`,
    password: `temp-password-${randomUUID()}`,
    name: 'Temporary operator',
  };
  const admin = await apiAs(adminState);
  try {
    const { id } = await inviteAndAccept(admin, { ...credentials, role });
    return { ...credentials, id };
  } finally {
    await admin.dispose();
  }
}

test.describe('as the admin', () => {
  test.use({ storageState: adminState });

  test('disables an operator: their session ends and they cannot sign in until enabled', async ({
    page,
    browser,
  }) => {
    const temp = await addOperator('support');
    const tempContext = await browser.newContext(signedOut);
    const tempPage = await tempContext.newPage();
    await signInThroughPage(tempPage, temp);
    const tempApi = tempPage.request;
    baseExpect((await tempApi.get('/api/user-groups/customer')).status()).toBe(200);

    await page.goto('/operators');
    const row = page.getByTestId('operator-row').filter({ hasText: temp.email });
    await row.getByRole('button', { name: 'Disable' }).click();
    const dialog = page.getByRole('dialog', { name: `Disable ${temp.email}?` });
    await dialog.getByRole('button', { name: 'Disable operator' }).click();
    await expect(row.getByText('disabled', { exact: true })).toBeVisible();

    baseExpect((await tempApi.get('/api/user-groups/customer')).status()).toBe(401);
    await tempPage.goto('/');
    await expect(tempPage).toHaveURL(/\/sign-in/);
    const form = tempPage.getByRole('form', { name: 'Sign in' });
    await form.getByLabel('Email').fill(temp.email);
    await form.getByLabel('Password').fill(temp.password);
    await form.getByRole('button', { name: 'Sign in' }).click();
    // Disabled reads like a wrong password: a right one must not be told apart (the log says which).
    await expect(tempPage.getByRole('main').getByRole('alert')).toHaveText(
      'The email or the password is wrong (or this operator was disabled: ask an admin of the console).',
    );

    await row.getByRole('button', { name: 'Enable' }).click();
    await expect(row.getByText('disabled', { exact: true })).toHaveCount(0);
    await signInThroughPage(tempPage, temp);
    await tempContext.close();
  });

  test("changes an operator's role either way, which applies to their next request", async ({ page }) => {
    const temp = await addOperator('viewer');
    const tempApi = await (await import('@playwright/test')).request.newContext({
      baseURL: consoleUrl,
      extraHTTPHeaders: { origin: consoleUrl },
    });
    try {
      baseExpect(
        (
          await tempApi.post('/api/auth/sign-in/email', {
            data: { email: temp.email, password: temp.password },
          })
        ).status(),
      ).toBe(200);
      const id = `role-change-${randomUUID().slice(0, 8)}`;
      baseExpect(
        (await postConsole(tempApi, '/api/user-groups/customer/get-or-create', { user_group_id: id })).status,
      ).toBe(403);

      await page.goto('/operators');
      const row = page.getByTestId('operator-row').filter({ hasText: temp.email });
      await row.getByLabel(`Role of ${temp.email}`).selectOption('support');
      await row.getByRole('button', { name: 'Change role' }).click();
      await expect(row.getByTestId('operator-row-role')).toHaveText('support');

      baseExpect(
        (await postConsole(tempApi, '/api/user-groups/customer/get-or-create', { user_group_id: id })).status,
      ).toBe(200);

      // Demoted while signed in: the very next request gets no token.
      await row.getByLabel(`Role of ${temp.email}`).selectOption('viewer');
      await row.getByRole('button', { name: 'Change role' }).click();
      await expect(row.getByTestId('operator-row-role')).toHaveText('viewer');
      const demoted = await tempApi.post('/api/user-groups/customer/get-or-create', {
        data: { user_group_id: id },
      });
      baseExpect(demoted.status()).toBe(403);
      baseExpect(await demoted.text()).not.toMatch(/[0-9a-f]{64}/);
    } finally {
      await tempApi.dispose();
    }
  });

  test('refuses an operator that exists, and changes to its own account', async ({ page }) => {
    await page.goto('/operators');
    const form = page.getByRole('form', { name: 'Add an operator' });
    await form.getByLabel('Email').fill('support@e2e.example');
    await form.getByLabel('Name').fill('Again');
    await form.getByRole('button', { name: 'Invite operator' }).click();
    await expect(form.getByText('is already an operator')).toBeVisible();

    const admin = await apiAs(adminState);
    try {
      const { operators } = (await (await admin.get('/api/operators')).json()) as {
        operators: Array<{ id: string; email: string }>;
      };
      const me = operators.find((operator) => operator.email === adminCredentials.email);
      const demote = await admin.patch(`/api/operators/${me?.id}`, { data: { role: 'viewer' } });
      baseExpect(demote.status()).toBe(400);
      baseExpect((await demote.json()).error.message).toContain('cannot change your own role');
    } finally {
      await admin.dispose();
    }
  });
});

apiTest('the sign-in page says what went wrong and returns to the page asked for', async ({ browser }) => {
  const context = await browser.newContext(signedOut);
  const page = await context.newPage();
  await page.goto('/audit?action=rotate');
  await expect(page).toHaveURL(/\/sign-in\?next=%2Faudit%3Faction%3Drotate$/);
  const form = page.getByRole('form', { name: 'Sign in' });
  await form.getByLabel('Email').fill('support@e2e.example');
  await form.getByLabel('Password').fill('wrong-password');
  await form.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('main').getByRole('alert')).toHaveText(
    'The email or the password is wrong (or this operator was disabled: ask an admin of the console).',
  );
  await expect(form.getByLabel('Password')).toHaveValue('');

  const temp = await addOperator('viewer');
  await signInThroughPage(page, temp, { next: '/audit?action=rotate' });
  await expect(page.getByLabel('Action')).toHaveValue('rotate');

  const cookie = (await context.cookies()).find((candidate) => candidate.name.endsWith('session_token'));
  expect(cookie).toMatchObject({
    name: 'console.session_token',
    httpOnly: true,
    sameSite: 'Lax',
    secure: false,
  });
  rememberSecrets(
    decodeURIComponent(cookie?.value ?? ''),
    decodeURIComponent(cookie?.value ?? '').split('.')[0],
  );

  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page).toHaveURL(/\/sign-in$/);
  // The cookie is gone, and replaying the old one gets nothing.
  const replay = await (await import('@playwright/test')).request.newContext({
    baseURL: consoleUrl,
    extraHTTPHeaders: { cookie: `${cookie?.name}=${cookie?.value}` },
  });
  baseExpect((await replay.get('/api/user-groups/customer')).status()).toBe(401);
  await replay.dispose();
  await context.close();
});

apiTest('an operator changes their own password; the old one stops working', async ({ browser }) => {
  const temp = await addOperator('viewer');
  const context = await browser.newContext(signedOut);
  const page = await context.newPage();
  await signInThroughPage(page, temp);
  await page.getByRole('link', { name: temp.email }).click();
  const form = page.getByRole('form', { name: 'Change password' });
  const newPassword = `changed-${randomUUID()}`;
  rememberSecrets(newPassword);
  await form.getByLabel('Current password').fill(temp.password);
  await form.getByLabel('New password', { exact: true }).fill(newPassword);
  await form.getByLabel('New password again').fill(newPassword);
  await form.getByRole('button', { name: 'Change password' }).click();
  await expect(form.getByRole('status')).toContainText('Password changed');
  await context.close();

  const api = await (await import('@playwright/test')).request.newContext({
    baseURL: consoleUrl,
    extraHTTPHeaders: { origin: consoleUrl },
  });
  baseExpect(
    (
      await api.post('/api/auth/sign-in/email', { data: { email: temp.email, password: temp.password } })
    ).status(),
  ).toBe(401);
  baseExpect(
    (
      await api.post('/api/auth/sign-in/email', { data: { email: temp.email, password: newPassword } })
    ).status(),
  ).toBe(200);
  await api.dispose();
});

apiTest('sign-up is closed: operators are added by admins only', async ({ playwright }) => {
  const anonymous = await playwright.request.newContext({
    baseURL: consoleUrl,
    extraHTTPHeaders: { origin: consoleUrl },
  });
  const response = await anonymous.post('/api/auth/sign-up/email', {
    data: { email: 'intruder@e2e.example', password: 'intruder-password-1', name: 'Intruder' },
  });
  baseExpect(response.status()).toBe(404);
  await anonymous.dispose();
});
