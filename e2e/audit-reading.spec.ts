import { randomBytes, randomUUID } from 'node:crypto';
import { apiAs, postConsole } from './support/api';
import { supportCredentials, supportState } from './support/auth-states';
import { expectNoSeriousA11yViolations } from './support/axe';
import { expect, test } from './support/fixtures';
import { consoleUrl } from './support/servers';

/** The audit log read as the directory is: part of an id, a link to each group, a bulk job on one line. */
test('finds a group by part of its id, in any case, and opens its page from the log', async ({ page }) => {
  const id = `audit-Part-${randomUUID().slice(0, 8)}-west`;
  const support = await apiAs(supportState);
  try {
    expect(
      (
        await postConsole(support, '/api/user-groups/customer/get-or-create', {
          user_group_id: id,
          name: 'Part Co',
        })
      ).status,
    ).toBe(200);
  } finally {
    await support.dispose();
  }
  const part = id.slice('audit-'.length, -'-west'.length).toUpperCase();
  await page.goto('/audit');
  const filters = page.getByRole('form', { name: 'Filter the audit log' });
  await filters.getByLabel('User group ID (contains)').fill(part);
  await filters.getByRole('button', { name: 'Apply filters' }).click();
  // The address first: CI once saw the whole log here (54 rows) after Apply, and this tells a lost
  // navigation from a filter the server did not apply.
  await expect(page).toHaveURL(`${consoleUrl}/audit?group=${part}`);
  const rows = page.getByTestId('audit-row');
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText('get-or-create');
  await expectNoSeriousA11yViolations(page, 'the audit log filtered by part of an id');
  await rows.first().getByRole('link', { name: id }).click();
  await expect(page).toHaveURL(`${consoleUrl}/customer/groups/${encodeURIComponent(id)}`);
  await expect(page.getByRole('heading', { level: 1, name: id })).toBeVisible();
});

test("a group's page shows its own history only, not that of an id that contains it", async ({ page }) => {
  const id = `exact-${randomUUID().slice(0, 8)}`;
  const support = await apiAs(supportState);
  try {
    for (const each of [id, `${id}-longer`])
      expect(
        (await postConsole(support, '/api/user-groups/testing/get-or-create', { user_group_id: each }))
          .status,
      ).toBe(200);
  } finally {
    await support.dispose();
  }
  await page.goto(`/testing/groups/${id}`);
  const history = page.getByRole('region', { name: 'History' });
  await expect(history.getByTestId('audit-row')).toHaveCount(1);
  await expect(history).not.toContainText(`${id}-longer`);
});

test('a bulk job’s rows fold into one line that opens, by keyboard too', async ({ page }) => {
  test.setTimeout(90_000);
  const prefix = `fold-${randomUUID().slice(0, 8)}`;
  const tokens: string[] = [];
  const support = await apiAs(supportState);
  try {
    for (const n of [1, 2]) {
      const created = await postConsole(support, '/api/user-groups/testing/get-or-create', {
        user_group_id: `${prefix}-${n}`,
      });
      tokens.push((created.body.user_group as { token: string }).token);
    }
    // Two tokens the console knows, and one no group holds, sent on purpose: two rows rotate, one fails.
    const job = await postConsole(support, '/api/user-groups/testing/jobs/rotate', {
      source: `${prefix}.txt`,
      tokens: [...tokens, randomBytes(32).toString('hex')].join('\n'),
      sendUnknown: true,
    });
    expect(job.status).toBe(200);
    const id = job.body.id as string;
    expect((await postConsole(support, `/api/jobs/${id}`, { action: 'start' })).status).toBe(200);
    await expect
      .poll(
        async () => ((await (await support.get(`/api/jobs/${id}`)).json()) as { status: string }).status,
        {
          timeout: 60_000,
        },
      )
      .toBe('finished');
  } finally {
    await support.dispose();
  }

  // With reads: a draft's pasted tokens were looked up (token.identify), under the job.
  await page.goto(
    `/audit?operator=${encodeURIComponent(supportCredentials.email)}&environment=Testing&reads=include`,
  );
  // Newest first: this job's line is the first of its kind.
  const toggle = page.getByRole('button', { name: 'bulk rotate: 3 rows (2 success, 1 failed)' }).first();
  await expect(toggle).toHaveAttribute('aria-expanded', 'false');
  await expect(page.getByTestId('audit-fold').filter({ has: toggle })).toContainText('1 failed');
  const controlled = page.locator(`[id="${await toggle.getAttribute('aria-controls')}"]`);
  await expect(controlled).toBeHidden();
  await toggle.focus();
  await page.keyboard.press('Enter');
  await expect(toggle).toHaveAttribute('aria-expanded', 'true');
  await expect(controlled).toBeVisible();
  // The job's own entry, the look-up of its three pasted tokens (by fingerprint) and its three rows.
  await expect(controlled.getByTestId('audit-row')).toHaveCount(7);
  // Its look-up and its row both name the group.
  await expect(controlled.getByRole('link', { name: `${prefix}-1` })).toHaveCount(2);
  await expect(controlled).toContainText('not_found');
  await expectNoSeriousA11yViolations(page, 'the audit log with a bulk job opened');
  await page.keyboard.press('Space');
  await expect(toggle).toHaveAttribute('aria-expanded', 'false');
});
