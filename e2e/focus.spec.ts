import { randomUUID } from 'node:crypto';
import type { Locator, Page } from '@playwright/test';
import { apiAs, postConsole, seedTestingGroup } from './support/api';
import { adminState, supportState } from './support/auth-states';
import { expectNoSeriousA11yViolations } from './support/axe';
import { expect, test } from './support/fixtures';

/**
 * The console's rule for focus (#43, item 3): after any action the focus goes to its result (the
 * heading of what opened, the status line that says what happened, the first error), never to the
 * page's body, where a keyboard user starts again from the top. Each action is pressed by keyboard
 * (Enter on the focused control), and the sweep fails where the focus lands on the body. Reset
 * two-factor (operators) and the approvals' two sides are swept by their own specs.
 */

/** What has the focus, once the action settled: fails on the body. Answers its description. */
async function expectFocusOffBody(page: Page, after: string): Promise<string> {
  await expect
    .poll(
      () =>
        page.evaluate(() => {
          const element = document.activeElement;
          return !element || element === document.body ? 'body' : 'elsewhere';
        }),
      { message: `after ${after}, the focus is on the body` },
    )
    .toBe('elsewhere');
  return page.evaluate(() => {
    const element = document.activeElement as HTMLElement;
    return `${element.tagName.toLowerCase()}: ${(element.textContent ?? '').trim().slice(0, 120)}`;
  });
}

/** Focuses `control` (as Tab would) and presses Enter on it. */
async function pressEnterOn(control: Locator) {
  await control.focus();
  await control.press('Enter');
}

const longId = () => `enterprise-customer-northwind-trading-company-emea-${randomUUID().slice(0, 8)}`;

test.describe('as support', () => {
  test.use({ storageState: supportState });

  test('Enter in the directory search opens the group, the focus on its heading', async ({ page }) => {
    const id = longId();
    await seedTestingGroup(id, 'Northwind Trading');
    await page.goto('/testing');
    const search = page.getByRole('searchbox').or(page.getByRole('textbox')).first();
    await search.fill(id);
    await search.press('Enter');
    await expect(page).toHaveURL(new RegExp(`/testing/groups/${id}$`));
    expect(await expectFocusOffBody(page, 'Enter in the directory search')).toContain(id);
  });

  test('following “Open …” from Identify lands on the group, not the body', async ({ page }) => {
    const id = longId();
    const token = await seedTestingGroup(id, 'Northwind Identify');
    await page.goto('/testing/paste-token');
    const form = page.getByRole('form', { name: 'Identify a token' });
    await form.getByLabel('Token').fill(token);
    await form.getByLabel('Token').press('Enter');
    const open = page.getByRole('link', { name: `Open ${id} in Testing` });
    await pressEnterOn(open);
    await expect(page).toHaveURL(new RegExp(`/testing/groups/${id}$`));
    await expectFocusOffBody(page, 'following Open from Identify');
  });

  test('a chat sentence pasted into Identify is refused here, the focus on the field, nothing sent', async ({
    page,
  }) => {
    await page.goto('/testing/paste-token');
    const form = page.getByRole('form', { name: 'Identify a token' });
    let sent = 0;
    page.on('request', (request) => {
      if (request.url().includes('/api/tokens/identify')) sent++;
    });
    await form
      .getByLabel('Token')
      .fill('hi! the customer says token 9f8e7d6c5b4a stopped working, can you check');
    await form.getByLabel('Token').press('Enter');
    await expect(page.getByTestId('not-a-token')).toContainText('is not a token');
    await expect(form.getByLabel('Token')).toBeFocused();
    expect(sent).toBe(0);
  });

  test('the palette’s option for a long id stays in its box, with the name; Enter lands on the group', async ({
    page,
  }) => {
    await page.setViewportSize({ width: 375, height: 667 });
    const id = longId();
    await seedTestingGroup(id, 'Northwind Trading Company');
    await page.goto('/testing');
    await page.keyboard.press('Control+k');
    const palette = page.getByRole('dialog', { name: 'Command palette' });
    await page.keyboard.type(id);
    // The group's own option, with its name: while the search runs, “Create “…”” names the id too.
    const option = palette
      .getByRole('option', { name: new RegExp(id) })
      .filter({ hasText: 'Northwind Trading Company' });
    await expect(option).toBeVisible();
    const [box, optionBox] = [await palette.boundingBox(), await option.boundingBox()];
    expect(optionBox?.width ?? 999).toBeLessThanOrEqual(box?.width ?? 0);
    expect((optionBox?.x ?? 0) + (optionBox?.width ?? 999)).toBeLessThanOrEqual(375);
    await expect(option.getByText('Northwind Trading Company')).toBeInViewport({ ratio: 1 });
    await page.screenshot({ path: 'test-results/focus/palette-phone.png' });
    await expectNoSeriousA11yViolations(page, 'the palette with a long id on a phone');
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(new RegExp(`/testing/groups/${id}$`));
    await expectFocusOffBody(page, 'Enter in the palette');
  });

  test('the audit page: Apply lands on the count, Older is before the table, the last Older page keeps the focus', async ({
    page,
  }) => {
    const id = `focus-audit-${randomUUID().slice(0, 8)}`;
    const support = await apiAs(supportState);
    try {
      // 51 entries of one group: two pages of 50.
      for (let call = 0; call < 51; call++)
        await postConsole(support, '/api/user-groups/testing/get-or-create', { user_group_id: id });
    } finally {
      await support.dispose();
    }
    await page.goto('/audit');
    const form = page.getByRole('form', { name: 'Filter the audit log' });
    await form.getByLabel('User group ID (contains)').fill(id);
    await pressEnterOn(form.getByRole('button', { name: 'Apply filters' }));
    await expect(page).toHaveURL(new RegExp(`group=${id}`));
    await expect(page.getByTestId('audit-summary')).toBeFocused();
    // Apply again with the filters unchanged: no new address, the count still gets the focus.
    await pressEnterOn(form.getByRole('button', { name: 'Apply filters' }));
    await expect(page.getByTestId('audit-summary')).toBeFocused();

    // The pager above the entries: reached without tabbing through 50 rows.
    const top = page.getByRole('navigation', { name: 'Pages, above the entries' });
    const table = page.getByRole('region', { name: 'Audit log entries' });
    const [topBox, tableBox] = [await top.boundingBox(), await table.boundingBox()];
    expect(topBox?.y ?? 999).toBeLessThan(tableBox?.y ?? 0);
    await pressEnterOn(top.getByRole('link', { name: 'Older →' }));
    await expect(page).toHaveURL(/before=/);
    await expect(top.getByRole('link', { name: 'Older →' })).toHaveCount(0);
    await expectFocusOffBody(page, 'the last Older page');
    await expectNoSeriousA11yViolations(page, 'the last page of the audit log');

    // A filter with an error: the focus on the error.
    await form.getByLabel('From (UTC)').fill('11/21/2026, 02:30 PM');
    await pressEnterOn(form.getByRole('button', { name: 'Apply filters' }));
    await expect(page.getByRole('main').getByRole('alert').first()).toBeFocused();
  });

  test('Check the file and Check the tokens land on the job they made, not the body', async ({ page }) => {
    const id = longId();
    const token = await seedTestingGroup(id, 'Northwind Bulk');
    await page.goto('/testing/bulk');
    await page.getByLabel('CSV file').setInputFiles({
      name: 'focus.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from(`user_group_id,name\n${id}-csv,Northwind CSV\n`),
    });
    await pressEnterOn(page.getByRole('button', { name: 'Check the file' }));
    await expect(page).toHaveURL(/\/testing\/bulk\/[^/]+$/);
    await expectFocusOffBody(page, 'Check the file');

    await page.goto('/testing/bulk');
    await page.getByLabel('Tokens to rotate').fill(token);
    await pressEnterOn(page.getByRole('button', { name: 'Check the tokens' }));
    await expect(page).toHaveURL(/\/testing\/bulk\/[^/]+$/);
    await expectFocusOffBody(page, 'Check the tokens');
  });

  test('a support person’s group page says deleting is for admins, and whom to ask', async ({ page }) => {
    const id = longId();
    await seedTestingGroup(id, 'Northwind Roles');
    await page.goto(`/testing/groups/${id}`);
    await expect(page.getByTestId('role-limits')).toContainText('Deleting a group is for admins');
    await expect(page.getByTestId('role-limits')).toContainText('admin@e2e.example');
  });
});

test.describe('as an admin', () => {
  test.use({ storageState: adminState });

  test('deleting a group by keyboard leaves the focus on what happened', async ({ page }) => {
    const id = longId();
    await seedTestingGroup(id, 'Northwind Delete');
    await page.goto(`/testing/groups/${id}`);
    const panel = page.getByRole('region', { name: 'Token' });
    await pressEnterOn(panel.getByRole('button', { name: 'Show token' }));
    await pressEnterOn(panel.getByRole('button', { name: 'Delete user group' }));
    const dialog = page.getByRole('dialog', { name: new RegExp(`Delete ${id}`) });
    await pressEnterOn(dialog.getByRole('button', { name: 'Delete user group' }));
    await expect(page.getByRole('status').filter({ hasText: 'was deleted' })).toBeVisible();
    await expectFocusOffBody(page, 'deleting a group');
  });

  test('create: the page has its h1, the result shows the mapping sent and takes the focus', async ({
    page,
  }) => {
    const id = longId();
    await page.goto(`/testing/new?id=${id}`);
    await expect(
      page.getByRole('heading', { level: 1, name: 'Create a user group in Testing' }),
    ).toBeVisible();
    await page
      .getByLabel(/Mapping/)
      .first()
      .fill('{"region": "emea"}');
    await pressEnterOn(page.getByRole('button', { name: 'Create user group' }));
    await expect(page.getByTestId('mapping-sent')).toContainText('"region": "emea"');
    await expectFocusOffBody(page, 'creating a group');
  });
});
