import { randomBytes, randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { parse } from 'csv-parse/sync';
import { apiAs, fingerprint, postConsole } from './support/api';
import { adminState, supportState } from './support/auth-states';
import { expectNoSeriousA11yViolations } from './support/axe';
import { expect, test } from './support/fixtures';
import { expectNoSidewaysScroll } from './support/layout-checks';
import { consoleUrl } from './support/servers';

/**
 * Before a rotation runs, its page names the groups it will rotate (never a token), and its counts
 * read as a person says them.
 */
test('a pasted list previews its first groups by id, name and fingerprint, an unknown one sent on purpose said so, all of them in a CSV', async ({
  page,
}) => {
  const prefix = `preview-${randomUUID().slice(0, 8)}`;
  const tokens: { id: string; name: string; token: string }[] = [];
  const support = await apiAs(supportState);
  try {
    for (let n = 1; n <= 12; n++) {
      const id = `${prefix}-${String(n).padStart(2, '0')}`;
      const created = await postConsole(support, '/api/user-groups/testing/get-or-create', {
        user_group_id: id,
        name: `Preview Co ${n}`,
      });
      expect(created.status).toBe(200);
      tokens.push({
        id,
        name: `Preview Co ${n}`,
        token: (created.body.user_group as { token: string }).token,
      });
    }
  } finally {
    await support.dispose();
  }
  // A token no group of this console holds: 64 hex characters, like a real one.
  const stranger = randomBytes(32).toString('hex');

  await page.goto('/testing/bulk');
  await page.getByLabel('Tokens to rotate').fill([stranger, ...tokens.map((each) => each.token)].join('\n'));
  await page.getByRole('checkbox', { name: /Also send tokens this console has never seen/ }).check();
  await page.getByRole('button', { name: 'Check the tokens' }).click();
  await expect(page.getByRole('heading', { name: 'Rotate tokens — pasted tokens' })).toBeVisible();
  await expect(page.getByTestId('job-preview')).toHaveText('13 rows are ready to run; no row has a problem.');

  const preview = page.getByRole('region', { name: 'Groups to rotate', exact: true });
  const rows = preview.getByRole('table').getByRole('row');
  await expect(rows).toHaveCount(11); // the header and the first ten
  await expect(rows.nth(1)).toHaveText(`1not known to the console—${fingerprint(stranger)}Unknown`);
  await expect(rows.nth(2).getByRole('cell').nth(4)).toHaveText('Current');
  const first = tokens[0] as (typeof tokens)[number];
  await expect(rows.nth(2).getByRole('cell').nth(2)).toHaveText(first.name);
  await expect(rows.nth(2).getByRole('cell').nth(3)).toHaveText(fingerprint(first.token));
  await expect(preview.getByText('and 3 more', { exact: true })).toBeVisible();
  // No token on the page: fingerprints only.
  const content = await page.content();
  for (const { token } of [...tokens, { token: stranger }]) expect(content).not.toContain(token);
  await expectNoSeriousA11yViolations(page, 'a rotation preview naming its groups');

  const downloading = page.waitForEvent('download');
  await preview.getByRole('link', { name: 'Download the list (13 rows, CSV)' }).click();
  const csv = await readFile((await (await downloading).path()) ?? '', 'utf8');
  for (const { token } of [...tokens, { token: stranger }]) expect(csv).not.toContain(token);
  const records = parse(csv, { columns: true }) as Record<string, string>[];
  expect(records).toHaveLength(13);
  expect(records[0]).toEqual({
    line: '1',
    user_group_id: '',
    name: '',
    token_fingerprint: fingerprint(stranger),
    note: 'not known to the console',
  });
  expect(
    records.slice(1).map((record) => [record.user_group_id, record.name, record.token_fingerprint]),
  ).toEqual(tokens.map((each) => [each.id, each.name, fingerprint(each.token)]));

  // The group a row names is a link to its page.
  await rows.nth(2).getByRole('link', { name: first.id }).click();
  await expect(page.getByRole('heading', { level: 1, name: first.id })).toBeVisible();
});

test('one group reads "1 row", "1 token" and "1 group", from the directory to the confirmation', async ({
  page,
}) => {
  const id = `one-${randomUUID().slice(0, 8)}`;
  const created = await page.request.post('/api/user-groups/testing/get-or-create', {
    data: { user_group_id: id, name: 'Single Co' },
    headers: { origin: consoleUrl },
  });
  expect(created.status()).toBe(200);
  await page.goto(`/testing?q=${id}`);
  await expect(page.getByTestId('directory-summary')).toContainText(`1 group matching “${id}”`);
  await page.getByRole('checkbox', { name: `Select ${id}` }).check();
  await page.getByRole('button', { name: 'Rotate tokens of the selected groups…' }).click();
  await expect(
    page.getByRole('heading', { name: 'Rotate tokens — 1 group chosen in the directory' }),
  ).toBeVisible();
  await expect(page.getByTestId('job-preview')).toHaveText('1 row is ready to run; no row has a problem.');
  await expect(page.getByRole('region', { name: 'Groups to rotate', exact: true })).toContainText(
    'Single Co',
  );
  await expect(page.getByRole('link', { name: 'Download the list (1 row, CSV)' })).toBeVisible();
  await page.getByRole('button', { name: 'Run 1 row' }).click();
  const dialog = page.getByRole('dialog', {
    name: 'Rotate 1 token (1 group chosen in the directory) in Testing (sandbox)?',
  });
  await expect(dialog).toBeVisible();
  await expectNoSeriousA11yViolations(page, 'the confirmation of one rotation');
  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);
  await expect(page.getByTestId('job-status')).toHaveText('Checked, not started');
});

for (const screen of [
  { name: 'phone', viewport: { width: 375, height: 667 } },
  { name: 'laptop', viewport: { width: 1280, height: 800 } },
])
  test.describe(`on a ${screen.name}`, () => {
    test.use({ viewport: screen.viewport });

    test('a replaced, a deleted and an unknown token are not ready: rows with a problem, in the identify page’s words', async ({
      page,
    }) => {
      const prefix = `standing-${randomUUID().slice(0, 8)}`;
      const tokenOf = (answer: { body: Record<string, unknown> }) =>
        (answer.body.user_group as { token: string }).token;
      // Deleting is an admin's; the rest support does.
      const admin = await apiAs(adminState);
      let current: string;
      let replaced: string;
      let ofDeleted: string;
      try {
        current = tokenOf(
          await postConsole(admin, '/api/user-groups/testing/get-or-create', {
            user_group_id: `${prefix}-current`,
          }),
        );
        replaced = tokenOf(
          await postConsole(admin, '/api/user-groups/testing/get-or-create', {
            user_group_id: `${prefix}-rotated`,
          }),
        );
        expect(
          (await postConsole(admin, '/api/user-groups/testing/rotate', { current_token: replaced })).status,
        ).toBe(200);
        ofDeleted = tokenOf(
          await postConsole(admin, '/api/user-groups/testing/get-or-create', {
            user_group_id: `${prefix}-deleted`,
          }),
        );
        expect(
          (
            await postConsole(admin, '/api/user-groups/testing/delete', {
              user_group_id: `${prefix}-deleted`,
              current_token: ofDeleted,
            })
          ).status,
        ).toBe(200);
      } finally {
        await admin.dispose();
      }
      const stranger = randomBytes(32).toString('hex');

      await page.goto('/testing/bulk');
      await page.getByLabel('Tokens to rotate').fill([current, replaced, ofDeleted, stranger].join('\n'));
      await page.getByRole('button', { name: 'Check the tokens' }).click();
      await expect(page.getByRole('heading', { name: 'Rotate tokens — pasted tokens' })).toBeVisible();
      await expect(page.getByTestId('job-preview')).toHaveText(
        '1 row is ready to run; 3 rows have problems and will not be sent (listed below). Run the good rows, or fix the tokens and check them again.',
      );
      // Only the current token is in the run.
      const preview = page.getByRole('region', { name: 'Groups to rotate', exact: true });
      await expect(preview.getByRole('row')).toHaveCount(2);
      await expect(preview.getByRole('link', { name: `${prefix}-current` })).toBeVisible();
      await expect(preview.getByTestId('token-standing')).toHaveText(['Current']);
      await expect(page.getByRole('button', { name: 'Run 1 row' })).toBeVisible();
      // The others say what they are, as the identify page does.
      const problems = page.getByRole('region', { name: /^Rows with problems/ });
      const problemRows = problems.getByRole('row');
      await expect(problemRows).toHaveCount(4);
      await expect(problemRows.nth(1)).toContainText(`${prefix}-rotated`);
      await expect(problemRows.nth(1).getByTestId('token-standing')).toHaveText('Replaced');
      await expect(problemRows.nth(2)).toContainText(`${prefix}-deleted`);
      await expect(problemRows.nth(2).getByTestId('token-standing')).toHaveText('Deleted');
      await expect(problemRows.nth(3).getByTestId('token-standing')).toHaveText('Unknown');
      await expect(problemRows.nth(3)).toContainText('Also send tokens this console has never seen');
      const content = await page.content();
      for (const token of [current, replaced, ofDeleted, stranger]) expect(content).not.toContain(token);
      await expectNoSidewaysScroll(page, 'a rotation preview with refused rows');
      await expectNoSeriousA11yViolations(
        page,
        'a rotation preview with replaced, deleted and unknown tokens',
      );
      await page.screenshot({ path: `/tmp/wt-day-shots/bulk-standing-${screen.name}.png`, fullPage: true });
    });
  });
