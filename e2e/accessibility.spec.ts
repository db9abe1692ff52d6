import { randomUUID } from 'node:crypto';
import { apiAs, postConsole } from './support/api';
import { adminState, supportState, viewerState } from './support/auth-states';
import { expectNoSeriousA11yViolations } from './support/axe';
import { expect, test } from './support/fixtures';

/** Every page and state the console journeys reach, scanned with axe, in each role that sees it. */
async function someGroup(environment: 'customer' | 'testing'): Promise<string> {
  const support = await apiAs(supportState);
  const id = `a11y-${randomUUID().slice(0, 8)}`;
  try {
    await postConsole(support, `/api/user-groups/${environment}/get-or-create`, {
      user_group_id: id,
      name: 'Accessible Ltd',
      properties: { plan: 'pro' },
    });
  } finally {
    await support.dispose();
  }
  return id;
}

test.describe('as support', () => {
  test.use({ storageState: supportState });

  test('pages and states of the user group journeys', async ({ page }) => {
    // A dozen axe scans: on a loaded 2-core machine they alone can take more than the default minute.
    test.setTimeout(180_000);
    const id = await someGroup('testing');
    for (const path of [
      '/customer',
      '/testing',
      `/testing?q=${id}`,
      '/testing/new',
      '/testing/paste-token',
      '/audit',
      '/account',
    ]) {
      await page.goto(path);
      await expectNoSeriousA11yViolations(page, path);
    }
    await page.goto(`/testing?q=no-such-${id}`);
    await expect(page.getByRole('link', { name: /Create user group/ })).toBeVisible();
    await expectNoSeriousA11yViolations(page, 'a search that offers creation');

    await page.goto(`/testing/groups/${id}`);
    await expectNoSeriousA11yViolations(page, 'group page');
    const panel = page.getByRole('region', { name: 'Token' });
    await panel.getByRole('button', { name: 'Show token' }).click();
    await panel.getByRole('group', { name: 'Token' }).getByRole('button', { name: 'Reveal' }).click();
    await expectNoSeriousA11yViolations(page, 'group page, token revealed');
    await panel.getByRole('button', { name: 'Rotate token' }).click();
    await expect(page.getByRole('dialog')).toBeVisible();
    await expectNoSeriousA11yViolations(page, 'rotate confirmation');
    await page.getByRole('dialog').getByRole('button', { name: 'Rotate token' }).click();
    await expect(page.getByRole('region', { name: 'Rotated token' })).toBeVisible();
    await expectNoSeriousA11yViolations(page, 'rotation result');

    await page.keyboard.press('Control+k');
    await expect(page.getByRole('dialog', { name: 'Command palette' })).toBeVisible();
    await expectNoSeriousA11yViolations(page, 'command palette');
  });
});

test.describe('as a viewer', () => {
  test.use({ storageState: viewerState });

  test('the directory, a group page and the audit log', async ({ page }) => {
    const id = await someGroup('customer');
    for (const path of ['/customer', `/customer/groups/${id}`, '/audit?environment=Customer']) {
      await page.goto(path);
      await expectNoSeriousA11yViolations(page, path);
    }
  });
});

test.describe('as an admin', () => {
  test.use({ storageState: adminState });

  test('operators, and a Customer deletion confirmation', async ({ page }) => {
    await page.goto('/operators');
    await expectNoSeriousA11yViolations(page, '/operators');
    const id = await someGroup('customer');
    await page.goto(`/customer/groups/${id}`);
    const panel = page.getByRole('region', { name: 'Token' });
    await panel.getByRole('button', { name: 'Show token' }).click();
    await panel.getByRole('button', { name: 'Delete user group' }).click();
    await expect(page.getByRole('dialog')).toBeVisible();
    await expectNoSeriousA11yViolations(page, 'delete confirmation (typed id)');
  });
});

test.describe('signed out', () => {
  test.use({ storageState: { cookies: [], origins: [] } });

  test('the sign-in page', async ({ page }) => {
    await page.goto('/sign-in');
    await expectNoSeriousA11yViolations(page, '/sign-in');
  });
});

test.describe('with the keyboard alone', () => {
  test.use({ storageState: supportState });

  test('find an unknown id, create it, open its page, show and copy its token', async ({ page }) => {
    const id = `keyboard-${randomUUID().slice(0, 8)}`;
    await page.goto('/testing');
    // The search field has the focus when the environment opens.
    await expect(page.getByRole('searchbox', { name: 'Find a user group' })).toBeFocused();
    await page.keyboard.type(id);
    const create = page.getByRole('link', { name: `Create user group “${id}”` });
    await expect(create).toBeVisible();
    await create.focus();
    await page.keyboard.press('Enter');
    const form = page.getByRole('form', { name: 'Create a user group' });
    await expect(form.getByLabel('User group ID')).toHaveValue(id);
    await expect(form.getByLabel('Name')).toBeFocused();
    await page.keyboard.type('Keyboard Ltd');
    await page.keyboard.press('Enter');
    const result = page.getByRole('region', { name: 'User group' });
    await expect(result.getByText('Created', { exact: true })).toBeVisible();
    const open = result.getByRole('link', { name: "Open the group's page" });
    await open.focus();
    await page.keyboard.press('Enter');
    const panel = page.getByRole('region', { name: 'Token' });
    const show = panel.getByRole('button', { name: 'Show token' });
    await show.focus();
    await page.keyboard.press('Enter');
    const copy = panel.getByRole('group', { name: 'Token' }).getByRole('button', { name: 'Copy' });
    await copy.focus();
    await expect(copy).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(panel.getByRole('button', { name: 'Copied' })).toBeVisible();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toMatch(/^[0-9a-f]{64}$/);
  });
});
