import { randomUUID } from 'node:crypto';
import type { Page } from '@playwright/test';
import { apiAs, postConsole } from './support/api';
import {
  adminCredentials,
  adminState,
  supportCredentials,
  supportState,
  viewerState,
} from './support/auth-states';
import { expectNoSeriousA11yViolations } from './support/axe';
import { expect, test } from './support/fixtures';
import { runServiceApi, serviceHasGroup } from './support/run-service';
import { rememberSecrets } from './support/seen-secrets';
import { consoleUrl, e2eStepUpMinutes } from './support/servers';

/** The token panel of a group page: reading never writes, a fresh token is never lost. */
type Slug = 'customer' | 'testing';

const newGroupId = (prefix: string) => `${prefix}-${randomUUID().slice(0, 8)}`;

/** A group made through the console (the directory has it); answers its token. */
async function consoleGroup(page: Page, slug: Slug, body: Record<string, unknown>): Promise<string> {
  const created = await page.request.post(`/api/user-groups/${slug}/get-or-create`, {
    data: body,
    headers: { origin: consoleUrl },
  });
  expect(created.status()).toBe(200);
  const { token } = ((await created.json()) as { user_group: { token: string } }).user_group;
  rememberSecrets(token);
  return token;
}

/** A Testing group an admin made (its "Last change" names the admin); answers its id. */
async function adminCreatesInTesting(prefix: string): Promise<string> {
  const id = newGroupId(prefix);
  const admin = await apiAs(adminState);
  try {
    expect(
      (await postConsole(admin, '/api/user-groups/testing/get-or-create', { user_group_id: id })).status,
    ).toBe(200);
  } finally {
    await admin.dispose();
  }
  return id;
}

async function openGroup(page: Page, slug: Slug, id: string) {
  await page.goto(`/${slug}/groups/${encodeURIComponent(id)}`);
  await expect(page.getByRole('heading', { level: 1, name: id })).toBeVisible();
  return page.getByRole('region', { name: 'Token' });
}

/** The Token fingerprint the Details list shows. */
const fingerprintOnPage = (page: Page) =>
  page
    .getByRole('region', { name: 'Details' })
    .getByRole('term')
    .filter({ hasText: 'Token fingerprint' })
    .locator('xpath=following-sibling::dd[1]');

test('Show token on a group deleted behind the console’s back says it is gone, creates nothing, and offers Create it again', async ({
  page,
}) => {
  const id = newGroupId('gone');
  const service = runServiceApi('Customer');
  const token = await consoleGroup(page, 'customer', {
    user_group_id: id,
    name: 'Gone Corp',
    mapping: { sales: 'warehouse-1' },
    properties: { plan: 'pro' },
  });
  await service.deleteUserGroup({ user_group_id: id, current_token: token });

  const panel = await openGroup(page, 'customer', id);
  await panel.getByRole('button', { name: 'Show token' }).click();
  const gone = panel.getByRole('status');
  await expect(gone).toContainText(`The user group ${id} no longer exists in Customer (production)`);
  await expect(gone).toContainText('did not create it again');
  await expect(panel.getByRole('group', { name: 'Token' })).toHaveCount(0);
  const createAgain = panel.getByRole('link', { name: 'Create it again' });
  await expect(createAgain).toBeVisible();
  // The page learnt it too, without a reload: the directory says deleted, the history has both steps.
  await expect(page.getByRole('region', { name: 'Details' })).toContainText('Deleted');
  const historyTable = page.getByRole('region', { name: 'History' });
  await expect(historyTable).toContainText('show-token');
  await expect(historyTable).toContainText('gone');
  await expectNoSeriousA11yViolations(page, 'a group found gone by Show token');

  // Looking created nothing: the service does not have the group.
  expect(await serviceHasGroup(service, id)).toBe(false);

  // Create it again: the create form, filled in from what the console recorded.
  await createAgain.click();
  const form = page.getByRole('form', { name: 'Create a user group' });
  await expect(form.getByLabel('User group ID')).toHaveValue(id);
  await expect(form.getByLabel('Name')).toHaveValue('Gone Corp');
  await expect(form.getByLabel('Mapping')).toHaveValue(/"sales": "warehouse-1"/);
  await expect(page.getByText(`${id} was deleted on`)).toBeVisible();
  await expectNoSeriousA11yViolations(page, 'the create form filled in to create a group again');
  await form.getByRole('button', { name: 'Create user group' }).click();
  await expect(
    page.getByRole('region', { name: 'User group' }).getByText('Created', { exact: true }),
  ).toBeVisible();
  expect(await serviceHasGroup(service, id)).toBe(true);
});

test('after a rotation, leaving by a header link, the breadcrumb, the palette, Back or a reload asks until the new token is copied', async ({
  page,
}) => {
  test.setTimeout(120_000);
  const id = newGroupId('guard');
  await consoleGroup(page, 'testing', { user_group_id: id, name: 'Guarded Ltd' });
  const panel = await openGroup(page, 'testing', id);
  const groupUrl = page.url();
  await panel.getByRole('button', { name: 'Show token' }).click();
  await expect(panel.getByRole('group', { name: 'Token' })).toBeVisible();
  const oldFingerprint = (await fingerprintOnPage(page).textContent())?.trim() ?? '';
  expect(oldFingerprint).toMatch(/^[0-9a-f]{12}$/);

  await panel.getByRole('button', { name: 'Rotate token' }).click();
  await page
    .getByRole('dialog', { name: `Rotate the token of ${id} in Testing (sandbox)?` })
    .getByRole('button', { name: 'Rotate token' })
    .click();
  const rotated = page.getByRole('region', { name: 'Rotated token' });
  await expect(rotated.getByRole('group', { name: 'New token' })).toBeVisible();
  // The focus is on the new token, not lost with the Rotate button.
  await expect(rotated).toBeFocused();
  // The page refreshes under the panel at once: new fingerprint and history, the new token still here.
  await expect(fingerprintOnPage(page)).not.toHaveText(oldFingerprint);
  await expect(fingerprintOnPage(page)).toHaveText(/^[0-9a-f]{12}$/);
  await expect(page.getByRole('region', { name: 'History' })).toContainText('rotate');
  await expect(rotated.getByRole('group', { name: 'New token' })).toBeVisible();

  const leaveDialog = page.getByRole('dialog', {
    name: `Leave ${id} in Testing (sandbox) without copying its new token?`,
  });
  const stay = async () => {
    await expect(leaveDialog).toBeVisible();
    await leaveDialog.getByRole('button', { name: 'Stay and copy it' }).click();
    await expect(leaveDialog).toBeHidden();
    expect(page.url()).toBe(groupUrl);
    await expect(rotated.getByRole('group', { name: 'New token' })).toBeVisible();
  };

  // A header link.
  await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Audit log' }).click();
  await expect(leaveDialog).toBeVisible();
  await expectNoSeriousA11yViolations(page, 'the question before leaving an uncopied token');
  await stay();
  // The breadcrumb, by keyboard: the dialog takes the focus, Stay first.
  await page.getByRole('link', { name: 'Testing groups' }).focus();
  await page.keyboard.press('Enter');
  await expect(leaveDialog.getByRole('button', { name: 'Stay and copy it' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(leaveDialog).toBeHidden();
  expect(page.url()).toBe(groupUrl);
  // The environment band's links and the header's environment switcher.
  await page.getByRole('region', { name: 'Environment' }).getByRole('link', { name: 'Bulk jobs' }).click();
  await stay();
  await page.getByRole('navigation', { name: 'Environment' }).getByRole('link', { name: 'Customer' }).click();
  await stay();
  // Signing out.
  await page.getByRole('button', { name: 'Sign out' }).click();
  await stay();
  // The command palette.
  await page.keyboard.press('Control+k');
  const palette = page.getByRole('dialog', { name: 'Command palette' });
  await page.keyboard.type('audit');
  await expect(palette.getByRole('option', { name: 'Open the audit log' })).toBeVisible();
  await page.keyboard.press('Enter');
  await expect(palette).toBeHidden();
  await stay();
  // Back.
  await page.goBack({ waitUntil: 'commit' }).catch(() => null);
  await stay();
  // A reload: the browser's own question (dismissed: the page stays).
  const asked = page.waitForEvent('dialog');
  const reload = page.reload({ timeout: 5_000 }).catch(() => null);
  const question = await asked;
  expect(question.type()).toBe('beforeunload');
  await question.dismiss();
  await reload;
  expect(page.url()).toBe(groupUrl);
  await expect(rotated.getByRole('group', { name: 'New token' })).toBeVisible();

  // Neither the history's state nor the URL ever held the token.
  const newToken = await rotated
    .getByRole('group', { name: 'New token' })
    .getByRole('button', { name: 'Reveal' })
    .click()
    .then(() => rotated.getByRole('group', { name: 'New token' }).getByTestId('secret-value').textContent());
  expect(newToken).toMatch(/^[0-9a-f]{64}$/);
  const historyState = await page.evaluate(() => JSON.stringify(window.history.state));
  expect(historyState).not.toContain(newToken);
  expect(page.url()).not.toContain(newToken);

  // Copied: leaving no longer asks.
  await rotated.getByRole('group', { name: 'New token' }).getByRole('button', { name: 'Copy' }).click();
  await expect(rotated.getByRole('button', { name: 'Copied' })).toBeVisible();
  await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Audit log' }).click();
  await expect(page).toHaveURL(/\/audit$/);
  await expect(leaveDialog).toHaveCount(0);
  // One Back press returns to the group: the guard left no extra history entry behind.
  await page.goBack();
  await expect(page).toHaveURL(groupUrl);
});

test('leaving without copying, once confirmed, goes where the link led', async ({ page }) => {
  const id = newGroupId('leave');
  await consoleGroup(page, 'testing', { user_group_id: id });
  const panel = await openGroup(page, 'testing', id);
  const groupUrl = page.url();
  await panel.getByRole('button', { name: 'Show token' }).click();
  await panel.getByRole('button', { name: 'Rotate token' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Rotate token' }).click();
  await expect(page.getByRole('region', { name: 'Rotated token' })).toBeVisible();

  await page.getByRole('link', { name: 'Testing groups' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Leave without copying' }).click();
  await expect(page).toHaveURL(/\/testing$/);
  await expect(page.getByRole('searchbox', { name: 'Find a user group' })).toBeVisible();
  await page.goBack();
  await expect(page).toHaveURL(groupUrl);
  // Back on the group page: nothing on screen asks any more; Show token fetches the current token.
  await panel.getByRole('button', { name: 'Show token' }).click();
  await expect(panel.getByRole('group', { name: 'Token' })).toBeVisible();
});

test('reading never writes, on screen too: Show token leaves “Last change” as the change that made it', async ({
  page,
}) => {
  // A support person's walk, round 3: "Last change" became the person who only looked.
  const id = await adminCreatesInTesting('last-change');
  const panel = await openGroup(page, 'testing', id);
  const lastChange = page
    .getByRole('region', { name: 'Details' })
    .getByRole('term')
    .filter({ hasText: 'Last change' })
    .locator('xpath=following-sibling::dd[1]');
  await expect(lastChange).toContainText(adminCredentials.email);
  await panel.getByRole('button', { name: 'Show token' }).click();
  await expect(panel.getByRole('group', { name: 'Token' })).toBeVisible();
  await page.reload();
  await expect(lastChange).toContainText(adminCredentials.email);
  await expect(lastChange).not.toContainText(supportCredentials.email);
});

test('a Customer token already on the page is revealed and copied only within the step-up window; after it, the dialog asks first', async ({
  page,
}) => {
  const id = newGroupId('window');
  await consoleGroup(page, 'customer', { user_group_id: id });
  // The page's clock only: the server's window is the sign-in's, still open, so confirming passes.
  await page.clock.install();
  const panel = await openGroup(page, 'customer', id);
  await panel.getByRole('button', { name: 'Show token' }).click();
  const field = panel.getByRole('group', { name: 'Token' });
  await field.getByRole('button', { name: 'Reveal' }).click();
  await expect(field.getByTestId('secret-value')).toBeVisible();

  // Left revealed, it hides when the window closes; revealing again asks first.
  await page.clock.fastForward((e2eStepUpMinutes + 1) * 60_000);
  await expect(field.getByTestId('secret-value')).toHaveCount(0);
  await field.getByRole('button', { name: 'Reveal' }).click();
  const dialog = page.getByRole('dialog', { name: 'Confirm it’s you' });
  await expect(dialog).toBeVisible();
  await expect(field.getByTestId('secret-value')).toHaveCount(0);
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(field.getByTestId('secret-value')).toHaveCount(0);
  await expect(field.getByRole('button', { name: 'Reveal' })).toBeVisible();

  await field.getByRole('button', { name: 'Copy' }).click();
  await expect(dialog).toBeVisible();
  await dialog.getByLabel('Your password').fill(supportCredentials.password);
  await dialog.getByRole('button', { name: 'Confirm' }).click();
  await expect(dialog).toHaveCount(0);
  // Confirmed: the window is open again, and Reveal asks nothing.
  await field.getByRole('button', { name: 'Reveal' }).click();
  await expect(field.getByTestId('secret-value')).toBeVisible();
});

test('Customer dialogs name the environment and the group, and the band stays on screen', async ({
  page,
}) => {
  await page.setViewportSize({ width: 375, height: 700 });
  const id = newGroupId('band');
  await consoleGroup(page, 'customer', { user_group_id: id, properties: { seats: 10, plan: 'enterprise' } });
  const panel = await openGroup(page, 'customer', id);
  await panel.getByRole('button', { name: 'Show token' }).click();
  await panel.getByRole('button', { name: 'Rotate token' }).click();
  const dialog = page.getByRole('dialog', { name: `Rotate the token of ${id} in Customer (production)?` });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole('button', { name: 'Rotate token' })).toBeDisabled();
  await dialog.getByRole('button', { name: 'Cancel' }).click();

  await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
  await expect(page.getByRole('heading', { level: 1, name: id })).not.toBeInViewport();
  const band = page.getByRole('region', { name: 'Environment' });
  await expect(band).toBeInViewport();
  await expect(band).toContainText('Customer');
  await expect(band).toContainText('production');
  // One compact line on a phone: it covers little of the page, and its search is still one tap away.
  expect((await band.boundingBox())?.height ?? 999).toBeLessThanOrEqual(48);
  await expect(band.getByRole('button', { name: 'Search or jump to…' })).toBeInViewport();
  await expect(band.getByText('Ctrl K')).toBeHidden();
});

test.describe('as a viewer', () => {
  test.use({ storageState: viewerState });

  test('the group page says the role cannot see tokens, where the token would be', async ({ page }) => {
    const support = await apiAs(supportState);
    const id = newGroupId('viewer');
    try {
      const created = await postConsole(support, '/api/user-groups/testing/get-or-create', {
        user_group_id: id,
      });
      expect(created.status).toBe(200);
    } finally {
      await support.dispose();
    }
    const panel = await openGroup(page, 'testing', id);
    await expect(panel).toContainText('Your role cannot see tokens');
    await expect(panel.getByRole('button')).toHaveCount(0);
    await expectNoSeriousA11yViolations(page, 'a group page for a viewer');
  });
});

test('a group page opens at its top, the id in view, focus left where a page load puts it', async ({
  page,
}) => {
  // A cold walk, round 3: Show token took the focus on opening and scrolled the id and name out of view.
  const id = await adminCreatesInTesting('opens-at-top');
  await page.setViewportSize({ width: 1280, height: 800 });
  await openGroup(page, 'testing', id);
  const showToken = page.getByRole('region', { name: 'Token' }).getByRole('button', { name: 'Show token' });
  await expect(showToken).toBeVisible();
  expect(await page.evaluate(() => window.scrollY)).toBe(0);
  await expect(page.getByRole('heading', { level: 1, name: id })).toBeInViewport();
  await expect(showToken).not.toBeFocused();
});
