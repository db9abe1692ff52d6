import { randomUUID } from 'node:crypto';
import type { Locator, Page } from '@playwright/test';
import { apiAs, postConsole, seedTestingGroup } from './support/api';
import { adminState, supportState } from './support/auth-states';
import { expect, test } from './support/fixtures';

// A support person's day with the keyboard alone: no click and no programmatic focus, only Tab,
// Enter, Space, typing and Ctrl-K; at every step the focused control is visible (a ring the eye can
// find) and within reach (a few Tabs, not a walk through the header).
test.use({ storageState: supportState });

/** Tabs forward until `target` has the focus: fails past `most` presses. Answers how many it took. */
async function tabTo(page: Page, target: Locator, most = 12): Promise<number> {
  for (let presses = 0; presses <= most; presses++) {
    if (await target.evaluate((element) => element === document.activeElement).catch(() => false)) {
      await expectFocusVisible(page);
      return presses;
    }
    await page.keyboard.press('Tab');
  }
  throw new Error(`not reached in ${most} Tabs: ${target}`);
}

/** The focused element shows it: :focus-visible, with an outline or a ring drawn. */
async function expectFocusVisible(page: Page) {
  const shown = await page.evaluate(() => {
    const element = document.activeElement;
    if (!element || element === document.body) return 'nothing is focused';
    if (!element.matches(':focus-visible')) return `${element.outerHTML.slice(0, 80)} is not :focus-visible`;
    const style = getComputedStyle(element);
    const outline = style.outlineStyle !== 'none' && Number.parseFloat(style.outlineWidth) > 0;
    return outline || style.boxShadow !== 'none'
      ? 'shown'
      : `${element.outerHTML.slice(0, 80)} draws no ring`;
  });
  expect(shown).toBe('shown');
}

test('find a group, show, reveal and copy its token, identify it pasted, open its group, and run a bulk rotation', async ({
  page,
}) => {
  test.setTimeout(90_000);
  const id = `journey-${randomUUID().slice(0, 8)}`;
  const token = await seedTestingGroup(id, 'Journey Ltd');

  // Find the group: Ctrl-K, its id, Enter; the page opens with Show token focused.
  await page.goto('/testing');
  await page.keyboard.press('Control+k');
  const palette = page.getByRole('dialog', { name: 'Command palette' });
  await page.keyboard.type(id);
  await expect(palette.getByRole('option', { name: new RegExp(id) })).toBeVisible();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { level: 1, name: id })).toBeVisible();
  const panel = page.getByRole('region', { name: 'Token' });
  const show = panel.getByRole('button', { name: 'Show token' });
  await expect(show).toBeFocused();
  await expectFocusVisible(page);

  // Show, reveal and copy it.
  await page.keyboard.press('Enter');
  const field = panel.getByRole('group', { name: 'Token' });
  await tabTo(page, field.getByRole('button', { name: 'Reveal' }));
  await page.keyboard.press('Enter');
  await expect(field.getByText(token)).toBeVisible();
  await tabTo(page, field.getByRole('button', { name: 'Copy' }));
  await page.keyboard.press('Enter');
  await expect(panel.getByRole('button', { name: 'Copied' })).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(token);

  // Identify it pasted: Ctrl-K takes the token, Enter identifies it; the answer has the focus, and
  // its group is a Tab or two away.
  await page.keyboard.press('Control+k');
  await page.keyboard.type(token);
  await expect(palette.getByRole('option', { name: /Identify this token/ })).toBeVisible();
  await page.keyboard.press('Enter');
  const open = page.getByRole('link', { name: `Open ${id} in Testing` });
  await expect(open).toBeVisible();
  expect(await tabTo(page, open, 4)).toBeLessThanOrEqual(4);
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(new RegExp(`/testing/groups/${id}$`));

  // A bulk rotation of it: paste the token, check, run, confirm.
  await page.goto('/testing/bulk');
  const list = page.getByLabel('Tokens to rotate');
  await tabTo(page, list, 30);
  await page.keyboard.type(token);
  await tabTo(page, page.getByRole('button', { name: 'Check the tokens' }), 6);
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('job-preview')).toContainText('1 row is ready to run');
  const run = page.getByRole('button', { name: 'Run 1 row' });
  await tabTo(page, run, 30);
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog');
  await tabTo(page, dialog.getByRole('button', { name: 'Rotate tokens' }), 4);
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('job-status')).toHaveText('Finished', { timeout: 60_000 });
  // The Run button went with the draft: focus is on the job's progress, not lost to the page's top.
  await expect(page.getByRole('heading', { name: 'Progress' })).toBeFocused();
});

test('closing without acting gives the focus back: a confirmation cancelled or escaped, the palette escaped; the header keeps to Testing', async ({
  page,
}) => {
  const id = `journey-${randomUUID().slice(0, 8)}`;
  await seedTestingGroup(id);
  await page.goto(`/testing/groups/${id}`);
  const panel = page.getByRole('region', { name: 'Token' });
  await panel.getByRole('button', { name: 'Show token' }).click();
  const rotate = panel.getByRole('button', { name: 'Rotate token' });
  await rotate.focus();
  for (const close of ['Cancel', 'Escape'] as const) {
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: `Rotate the token of ${id} in Testing (sandbox)?` });
    await expect(dialog).toBeVisible();
    if (close === 'Cancel') await dialog.getByRole('button', { name: 'Cancel' }).click();
    else await page.keyboard.press('Escape');
    await expect(dialog).toHaveCount(0);
    await expect(rotate).toBeFocused();
  }
  await page.keyboard.press('Control+k');
  await expect(page.getByRole('dialog', { name: 'Command palette' })).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(rotate).toBeFocused();

  await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'User groups' }).click();
  await expect(page).toHaveURL(/\/testing$/);
});

test('a deleted group found by its id leads to its page and history, not only to creating it again', async ({
  page,
}) => {
  const id = `journey-${randomUUID().slice(0, 8)}`;
  // Deleting is an admin's (support may not).
  const admin = await apiAs(adminState);
  try {
    const created = await postConsole(admin, '/api/user-groups/testing/get-or-create', {
      user_group_id: id,
    });
    const { token } = (created.body as { user_group: { token: string } }).user_group;
    const deleted = await postConsole(admin, '/api/user-groups/testing/delete', {
      user_group_id: id,
      current_token: token,
    });
    expect(deleted.status).toBe(200);
  } finally {
    await admin.dispose();
  }
  await page.goto(`/testing?q=${id}`);
  await page.getByRole('link', { name: 'Its page and history' }).click();
  await expect(page.getByRole('heading', { level: 1, name: id })).toBeVisible();
  await expect(page.getByText(/^Deleted /)).toBeVisible();
});
