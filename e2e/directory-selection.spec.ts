import { randomUUID } from 'node:crypto';
import { apiAs, postConsole } from './support/api';
import { supportState } from './support/auth-states';
import { expectNoSeriousA11yViolations } from './support/axe';
import { expect, test } from './support/fixtures';

/** The directory's selection: a whole page with one checkbox, or every match of a search. */
test('selects a page with its header checkbox (mixed when some rows are), then all 27 matches of a search, and rotates them', async ({
  page,
}) => {
  test.setTimeout(120_000);
  const prefix = `select-${randomUUID().slice(0, 8)}`;
  const support = await apiAs(supportState);
  try {
    for (let n = 1; n <= 27; n++) {
      const created = await postConsole(support, '/api/user-groups/testing/get-or-create', {
        user_group_id: `${prefix}-${String(n).padStart(2, '0')}`,
        name: `Selected ${n}`,
      });
      expect(created.status).toBe(200);
    }
  } finally {
    await support.dispose();
  }

  await page.goto(`/testing?q=${prefix}&sort=id&order=asc`);
  await expect(page.getByTestId('directory-summary')).toContainText('27 groups matching');
  const directory = page.getByRole('form', { name: 'Directory' });
  const pageBox = directory.getByRole('checkbox', { name: 'Select all on this page' });
  const rowBoxes = directory.getByRole('checkbox', { name: /^Select select-/ });
  await expect(rowBoxes).toHaveCount(25);

  // By keyboard: the header checkbox takes focus and Space ticks every row on the page.
  await pageBox.focus();
  await page.keyboard.press('Space');
  await expect(pageBox).toBeChecked();
  // Focus is visible: the ring of every keyboard-focused control.
  expect(await pageBox.evaluate((box) => getComputedStyle(box).outlineStyle)).toBe('solid');
  for (const box of await rowBoxes.all()) await expect(box).toBeChecked();
  await expectNoSeriousA11yViolations(page, 'a directory page with every row selected');

  // One row unticked: the header is mixed.
  await rowBoxes.nth(3).uncheck();
  await expect(pageBox).not.toBeChecked();
  expect(await pageBox.evaluate((box: HTMLInputElement) => box.indeterminate)).toBe(true);
  await expect(directory.getByTestId('selection-scope')).toHaveCount(0);
  await pageBox.click();
  await expect(pageBox).toBeChecked();
  expect(await pageBox.evaluate((box: HTMLInputElement) => box.indeterminate)).toBe(false);

  // Every row of the page ticked, and the search matches more: all of them may be chosen.
  const scope = directory.getByTestId('selection-scope');
  await expect(scope).toContainText('All 25 groups on this page are selected.');
  await scope.getByRole('button', { name: 'Select all 27 matches' }).click();
  await expect(scope).toContainText(`All 27 groups matching “${prefix}” are selected.`);
  await expect(directory.getByRole('status').filter({ hasText: 'selected' })).toHaveText(
    '27 groups selected',
  );
  await expectNoSeriousA11yViolations(page, 'every match of a search selected');
  await scope.getByRole('button', { name: 'Select only this page' }).click();
  await expect(scope).toContainText('All 25 groups on this page are selected.');
  await scope.getByRole('button', { name: 'Select all 27 matches' }).click();

  await directory.getByRole('button', { name: 'Rotate tokens of the selected groups…' }).click();
  await expect(
    page.getByRole('heading', { name: `Rotate tokens — 27 groups matching “${prefix}” in the directory` }),
  ).toBeVisible();
  await expect(page.getByTestId('job-preview')).toHaveText('27 rows are ready to run; no row has a problem.');
  const preview = page.getByRole('region', { name: 'Groups to rotate', exact: true });
  await expect(preview.getByRole('link', { name: `${prefix}-01` })).toBeVisible();
  await expect(preview.getByText('and 17 more', { exact: true })).toBeVisible();

  // Unticking one row goes back to the ticked rows only.
  await page.goBack();
  await expect(rowBoxes).toHaveCount(25);
  await pageBox.check();
  await directory.getByRole('button', { name: 'Select all 27 matches' }).click();
  await rowBoxes.first().uncheck();
  await expect(scope).toHaveCount(0);
  await directory.getByRole('button', { name: 'Rotate tokens of the selected groups…' }).click();
  await expect(page.getByTestId('job-preview')).toHaveText('24 rows are ready to run; no row has a problem.');
});
