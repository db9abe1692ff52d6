import { randomUUID } from 'node:crypto';
import type { Locator, Page } from '@playwright/test';
import { adminState } from './support/auth-states';
import { expect, test, trackRequests } from './support/fixtures';

const newGroupId = () => `e2e-${randomUUID().slice(0, 8)}`;

function getOrCreateForm(page: Page): Locator {
  return page.getByRole('form', { name: 'Get or create' });
}

async function getOrCreate(
  page: Page,
  group: { id: string; name?: string; mapping?: string; properties?: string },
): Promise<Locator> {
  const form = getOrCreateForm(page);
  await form.getByLabel('User group ID').fill(group.id);
  await form.getByLabel('Name').fill(group.name ?? '');
  await form.getByLabel('Mapping').fill(group.mapping ?? '');
  await form.getByLabel('Properties').fill(group.properties ?? '');
  await form.getByRole('button', { name: 'Get or create' }).click();
  const result = page.getByRole('region', { name: 'User group' });
  await expect(result).toBeVisible();
  return result;
}

/** Reveals a secret field and reads the token it shows. */
async function revealToken(scope: Locator, label: string): Promise<string> {
  const field = scope.getByRole('group', { name: label });
  await field.getByRole('button', { name: 'Reveal' }).click();
  const token = (await field.getByTestId('secret-value').textContent())?.trim() ?? '';
  expect(token).toMatch(/^\S{16,}$/);
  return token;
}

test.beforeEach(async ({ page }) => {
  await page.goto('/');
});

test('creates a group with mapping and properties, then gets the same group again', async ({ page }) => {
  const id = newGroupId();
  const created = await getOrCreate(page, {
    id,
    name: 'Acme Corp',
    mapping: '{"sales": "warehouse-1", "marketing": 42}',
    properties: '{"plan": "enterprise", "seats": 10}',
  });
  await expect(created.getByText('Created', { exact: true })).toBeVisible();
  await expect(created).toContainText(id);
  await expect(created).toContainText('Acme Corp');
  await expect(created).toContainText('enterprise');
  const token = await revealToken(created, 'Token');

  const existing = await getOrCreate(page, { id, name: 'Acme Corp' });
  await expect(existing.getByText('Existing', { exact: true })).toBeVisible();
  expect(await revealToken(existing, 'Token')).toBe(token);
});

test('says so when the stored name differs from the typed one', async ({ page }) => {
  const id = newGroupId();
  await getOrCreate(page, { id, name: 'First name' });
  const existing = await getOrCreate(page, { id, name: 'Second name' });
  await expect(existing.getByText('Existing', { exact: true })).toBeVisible();
  await expect(existing).toContainText('never updates');
});

test('copies the token to the clipboard with visible feedback', async ({ page }) => {
  const result = await getOrCreate(page, { id: newGroupId() });
  const token = await revealToken(result, 'Token');
  const field = result.getByRole('group', { name: 'Token' });
  await field.getByRole('button', { name: 'Copy' }).click();
  await expect(field.getByRole('button', { name: 'Copied' })).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(token);
});

test('rotates a token after confirmation; the old token is refused afterwards', async ({ page }) => {
  const result = await getOrCreate(page, { id: newGroupId() });
  const oldToken = await revealToken(result, 'Token');
  await result.getByRole('button', { name: 'Rotate token' }).click();

  const rotateForm = page.getByRole('form', { name: 'Rotate token' });
  await expect(rotateForm.getByLabel('Current token')).toHaveValue(oldToken);
  await rotateForm.getByRole('button', { name: 'Rotate token' }).click();
  const dialog = page.getByRole('dialog', { name: 'Rotate this token?' });
  await dialog.getByRole('button', { name: 'Rotate' }).click();

  const rotated = page.getByRole('region', { name: 'Rotated token' });
  const newToken = await revealToken(rotated, 'New token');
  expect(newToken).not.toBe(oldToken);
  await expect(rotated).toContainText('Customer');
  await expect(rotated.getByText('No longer valid').first()).toBeVisible();

  // The new token stays until copied or closing is confirmed.
  await rotated.getByRole('button', { name: 'Done' }).click();
  const confirmClose = page.getByRole('dialog');
  await expect(confirmClose).toContainText('not copied');
  await confirmClose.getByRole('button', { name: 'Keep it open' }).click();
  await expect(rotated).toBeVisible();

  // The old token no longer identifies any group.
  await rotateForm.getByLabel('Current token').fill(oldToken);
  await rotateForm.getByRole('button', { name: 'Rotate token' }).click();
  await page
    .getByRole('dialog', { name: 'Rotate this token?' })
    .getByRole('button', { name: 'Rotate' })
    .click();
  await expect(rotateForm.getByRole('alert')).toContainText('No user group has that token');
});

test.describe('as an admin', () => {
  // Deleting a group is an admin's action.
  test.use({ storageState: adminState });

  test('deletes a group after typing its id, and the id is then created anew', async ({ page }) => {
    const id = newGroupId();
    const result = await getOrCreate(page, { id });
    const token = await revealToken(result, 'Token');

    const deleteForm = page.getByRole('form', { name: 'Delete user group' });
    await deleteForm.getByLabel('User group ID').fill(id);
    await deleteForm.getByLabel('Current token').fill(token);
    await deleteForm.getByRole('button', { name: 'Delete user group' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete user group?' });
    const confirm = dialog.getByRole('button', { name: 'Delete' });
    await expect(confirm).toBeDisabled();
    await dialog.getByLabel('Type the user group ID to confirm').fill(`${id}-typo`);
    await expect(confirm).toBeDisabled();
    await dialog.getByLabel('Type the user group ID to confirm').fill(id);
    await confirm.click();
    await expect(page.getByRole('status').filter({ hasText: 'was deleted' })).toContainText(id);

    const again = await getOrCreate(page, { id });
    await expect(again.getByText('Created', { exact: true })).toBeVisible();
    expect(await revealToken(again, 'Token')).not.toBe(token);
  });
});

test('blocks invalid JSON before any request and says where the error is', async ({ page }) => {
  const requests = trackRequests(page, '/api/user-groups/customer/get-or-create');
  const form = getOrCreateForm(page);
  await form.getByLabel('User group ID').fill(newGroupId());
  await form.getByLabel('Mapping').fill('{\n  "sales": \n}');
  await expect(form).toContainText(/line 3, column 1/i);
  await form.getByLabel('Properties').fill('["not", "an", "object"]');
  await expect(form).toContainText(/must be a JSON object/i);
  await form.getByRole('button', { name: 'Get or create' }).click();
  await expect(page.getByRole('region', { name: 'User group' })).toHaveCount(0);
  expect(requests).toEqual([]);

  // Values must be data source ids; Format pretty-prints once valid.
  await form.getByLabel('Mapping').fill('{"sales": {"nested": true}}');
  await expect(form).toContainText(/string or an integer/i);
  await form.getByLabel('Mapping').fill('{"sales":"warehouse-1"}');
  await form.getByRole('button', { name: 'Format' }).first().click();
  await expect(form.getByLabel('Mapping')).toHaveValue('{\n  "sales": "warehouse-1"\n}');
  expect(requests).toEqual([]);
});

test('works on a 375 px wide screen', async ({ page }) => {
  await page.setViewportSize({ width: 375, height: 800 });
  const result = await getOrCreate(page, {
    id: newGroupId(),
    name: 'A rather long customer name, Incorporated',
  });
  await revealToken(result, 'Token');
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  await expect(result.getByRole('button', { name: 'Copy' })).toBeInViewport({ ratio: 1 });
});
