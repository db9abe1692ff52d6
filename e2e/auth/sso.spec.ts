import { randomUUID } from 'node:crypto';
import { expect, test } from '@playwright/test';
import { apiAs, auditEntries } from '../support/api';
import { adminCredentials, adminState, supportCredentials, viewerState } from '../support/auth-states';
import { ageSessionsPastStepUp } from '../support/console-sessions';
import { mockOidc } from '../support/oidc-settings';
import { e2eStepUpMinutes } from '../support/servers';
import { signInWithSso } from '../support/sso-sign-in';

test('a person new to the console signs in through SSO as a viewer', async ({ browser }) => {
  const email = `sso-${randomUUID().slice(0, 8)}@e2e.example`;
  const page = await signInWithSso(browser, email);
  await expect(page.getByTestId('operator-email')).toHaveText(email);
  await expect(page.getByTestId('operator-role')).toHaveText('viewer');
  await page.context().close();

  const viewer = await apiAs(viewerState);
  try {
    const entries = await auditEntries(viewer, { operator: email, action: 'sign-in' });
    expect(entries.map((row) => [row.outcome, row.detail])).toEqual([['success', 'single sign-on']]);
  } finally {
    await viewer.dispose();
  }
});

test('an operator an admin added signs in through SSO with their role', async ({ browser }) => {
  const page = await signInWithSso(browser, supportCredentials.email);
  await expect(page.getByTestId('operator-email')).toHaveText(supportCredentials.email);
  await expect(page.getByTestId('operator-role')).toHaveText('support');
  await page.context().close();
});

test('a disabled operator cannot sign in through SSO', async ({ browser }) => {
  const email = `sso-disabled-${randomUUID().slice(0, 8)}@e2e.example`;
  const admin = await apiAs(adminState);
  try {
    const created = await admin.post('/api/operators', {
      data: { email, name: 'Soon disabled', role: 'support' },
    });
    const { operator } = (await created.json()) as { operator: { id: string } };
    expect((await admin.patch(`/api/operators/${operator.id}`, { data: { disabled: true } })).status()).toBe(
      200,
    );
  } finally {
    await admin.dispose();
  }
  const page = await signInWithSso(browser, email);
  await expect(page).toHaveURL(/\/sign-in\?error=/);
  await expect(page.getByRole('main').getByRole('alert')).toContainText('disabled');
  await page.context().close();
});

test('an IdP identity with an unverified email cannot become the admin', async ({ browser }) => {
  const page = await signInWithSso(browser, adminCredentials.email, { emailVerified: false });
  await expect(page).toHaveURL(/\/sign-in\?error=/);
  await expect(page.getByRole('main').getByRole('alert')).toBeVisible();
  // No session: the console still asks to sign in.
  await page.goto('/audit');
  await expect(page).toHaveURL(/\/sign-in\?next=/);
  await page.context().close();
});

test('an SSO operator confirms a Customer action by signing in again at the IdP, asked to re-authenticate past the window', async ({
  browser,
}) => {
  const email = `sso-step-up-${randomUUID().slice(0, 8)}@e2e.example`;
  const admin = await apiAs(adminState);
  try {
    const added = await admin.post('/api/operators', {
      // Invited, and in through the IdP instead of the link: no password at all.
      data: { email, name: 'SSO step-up', role: 'support' },
    });
    expect(added.status()).toBe(201);
  } finally {
    await admin.dispose();
  }
  const page = await signInWithSso(browser, email);
  await expect(page.getByTestId('operator-email')).toHaveText(email);
  const id = `sso-step-up-${randomUUID().slice(0, 8)}`;
  const created = await page.request.post('/api/user-groups/customer/get-or-create', {
    data: { user_group_id: id },
    headers: { origin: new URL(page.url()).origin },
  });
  expect(created.status()).toBe(200);
  await ageSessionsPastStepUp(email);

  await page.goto(`/customer/groups/${id}`);
  await page.getByRole('region', { name: 'Token' }).getByRole('button', { name: 'Show token' }).click();
  const dialog = page.getByRole('dialog', { name: 'Confirm it’s you' });
  const authorize = page.waitForRequest((request) => new URL(request.url()).pathname === '/authorize');
  await dialog.getByRole('button', { name: `Sign in again with ${mockOidc.displayName}` }).click();
  // The IdP is asked to authenticate again when its own session is older than the window.
  expect(new URL((await authorize).url()).searchParams.get('max_age')).toBe(String(e2eStepUpMinutes * 60));
  await page.getByLabel('Email', { exact: true }).fill(email);
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page).toHaveURL(new RegExp(`/customer/groups/${id}$`));
  await page.getByRole('region', { name: 'Token' }).getByRole('button', { name: 'Show token' }).click();
  await expect(
    page.getByRole('region', { name: 'Token' }).getByRole('group', { name: 'Token' }),
  ).toBeVisible();
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await page.context().close();
});
