import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { test as apiTest } from '@playwright/test';
import { parse } from 'csv-parse/sync';
import { type AuditRow, apiAs, auditEntries, fingerprint, postConsole } from './support/api';
import { adminState, supportCredentials, viewerState } from './support/auth-states';
import { expectNoSeriousA11yViolations } from './support/axe';
import { expect, test } from './support/fixtures';
import { rememberSecrets } from './support/seen-secrets';
import { consoleUrl } from './support/servers';

const newGroupId = (label: string) => `audit-${label}-${randomUUID().slice(0, 8)}`;

apiTest(
  'each get-or-create, rotation and deletion leaves its audit entry, with fingerprints only',
  async () => {
    const support = await apiAs('e2e/.auth/support.json');
    const admin = await apiAs(adminState);
    const viewer = await apiAs(viewerState);
    try {
      const id = newGroupId('flow');
      const created = await postConsole(support, '/api/user-groups/customer/get-or-create', {
        user_group_id: id,
        name: 'Audit Co',
      });
      expect(created.status).toBe(200);
      const token = (created.body.user_group as { token: string }).token;

      const rotated = await postConsole(support, '/api/user-groups/customer/rotate', {
        current_token: token,
      });
      expect(rotated.status).toBe(200);
      const newToken = (rotated.body.user_group as { token: string }).token;

      const refused = await postConsole(support, '/api/user-groups/customer/delete', {
        user_group_id: id,
        current_token: newToken,
      });
      expect(refused.status).toBe(403);
      const deleted = await postConsole(admin, '/api/user-groups/customer/delete', {
        user_group_id: id,
        current_token: newToken,
      });
      expect(deleted.status).toBe(200);
      const missing = await postConsole(admin, '/api/user-groups/customer/delete', {
        user_group_id: id,
        current_token: newToken,
      });
      expect(missing.status).toBe(404);

      const entries = await auditEntries(viewer, { group: id });
      const summary = (row: AuditRow) => [row.action, row.operator_email, row.outcome, row.request_id];
      expect(entries.map(summary)).toEqual([
        ['delete', 'admin@e2e.example', 'not_found', missing.requestId],
        ['delete', 'admin@e2e.example', 'success', deleted.requestId],
        ['delete', supportCredentials.email, 'forbidden', refused.requestId],
        ['rotate', supportCredentials.email, 'success', rotated.requestId],
        ['get-or-create', supportCredentials.email, 'success', created.requestId],
      ]);
      const byRequest = new Map(entries.map((row) => [row.request_id, row]));
      expect(byRequest.get(created.requestId)).toMatchObject({
        user_group_name: 'Audit Co',
        token_fingerprint: fingerprint(token),
      });
      expect(byRequest.get(rotated.requestId)).toMatchObject({
        token_fingerprint: fingerprint(newToken),
        previous_token_fingerprint: fingerprint(token),
      });
      expect(byRequest.get(deleted.requestId)).toMatchObject({
        previous_token_fingerprint: fingerprint(newToken),
      });
      expect(JSON.stringify(entries)).not.toContain(token);
      expect(JSON.stringify(entries)).not.toContain(newToken);
    } finally {
      await Promise.all([support.dispose(), admin.dispose(), viewer.dispose()]);
    }
  },
);

apiTest('sign-in, failed sign-in and sign-out leave audit entries', async ({ playwright }) => {
  const anonymous = await playwright.request.newContext({
    baseURL: consoleUrl,
    extraHTTPHeaders: { origin: consoleUrl },
  });
  const viewer = await apiAs(viewerState);
  try {
    const since = new Date(Date.now() - 1000).toISOString().slice(0, 19);
    const wrong = await anonymous.post('/api/auth/sign-in/email', {
      data: { email: supportCredentials.email, password: 'not-the-password' },
    });
    expect(wrong.status()).toBe(401);
    const right = await anonymous.post('/api/auth/sign-in/email', {
      data: { email: supportCredentials.email, password: supportCredentials.password },
    });
    expect(right.status()).toBe(200);
    const signedOut = await anonymous.post('/api/auth/sign-out', { data: {} });
    expect(signedOut.status()).toBe(200);
    // The ended session is refused.
    expect((await anonymous.get('/api/user-groups/customer')).status()).toBe(401);

    const filters = { operator: supportCredentials.email, from: since };
    const signIns = await auditEntries(viewer, { ...filters, action: 'sign-in' });
    const signOuts = await auditEntries(viewer, { ...filters, action: 'sign-out' });
    expect(signIns.map((row) => [row.outcome, row.request_id])).toEqual([
      ['success', right.headers()['x-request-id']],
      ['invalid_email_or_password', wrong.headers()['x-request-id']],
    ]);
    expect(signOuts.map((row) => [row.outcome, row.request_id])).toEqual([
      ['success', signedOut.headers()['x-request-id']],
    ]);
    expect([...signIns, ...signOuts].every((row) => row.operator_id)).toBe(true);
  } finally {
    await Promise.all([anonymous.dispose(), viewer.dispose()]);
  }
});

apiTest('operator changes made during setup are in the audit log', async () => {
  const viewer = await apiAs(viewerState);
  try {
    // Refused attempts are on record too (the access sweep's, as the role that tried): setup's are the admin's.
    const entries = await auditEntries(viewer, { action: 'operator.create' });
    const setup = entries.filter(
      (row) =>
        row.detail?.endsWith('@e2e.example as support') || row.detail?.endsWith('@e2e.example as viewer'),
    );
    expect(
      setup
        .filter((row) => row.outcome === 'success')
        .map((row) => [row.detail, row.operator_email])
        .sort(),
    ).toEqual([
      ['support@e2e.example as support', 'admin@e2e.example'],
      ['viewer@e2e.example as viewer', 'admin@e2e.example'],
    ]);
  } finally {
    await viewer.dispose();
  }
});

test.describe('as a viewer', () => {
  test.use({ storageState: viewerState });

  test('the CSV export downloads exactly the filtered rows, formulas neutralised', async ({ page }) => {
    const support = await apiAs('e2e/.auth/support.json');
    const id = `=cmd|' /C calc'!A0-${randomUUID().slice(0, 8)}`;
    try {
      for (const name of ['@first', '+second', '-third']) {
        expect(
          (await postConsole(support, '/api/user-groups/customer/get-or-create', { user_group_id: id, name }))
            .status,
        ).toBe(200);
      }
    } finally {
      await support.dispose();
    }

    await page.goto('/audit');
    const filters = page.getByRole('form', { name: 'Filter the audit log' });
    await filters.getByLabel('User group ID').fill(id);
    await filters.getByLabel('Action').selectOption('get-or-create');
    await filters.getByRole('button', { name: 'Apply filters' }).click();
    await expect(page.getByTestId('audit-summary')).toContainText('3 entries');
    // The count says how to include reads in words, not as bracketed text that reads as a link.
    await expect(page.getByTestId('audit-summary')).toContainText(
      'reads are counted when Include reads is ticked',
    );
    const rows = page.getByTestId('audit-row');
    await expect(rows).toHaveCount(3);

    const downloading = page.waitForEvent('download');
    await page.getByRole('link', { name: /Export CSV/ }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toMatch(/^audit-log-\d{8}-\d{4}\.csv$/);
    const csv = await readFile((await download.path()) ?? '', 'utf8');
    const records: Record<string, string>[] = parse(csv, { columns: true });
    expect(records).toHaveLength(3);
    expect(records.map((record) => record['user group id'])).toEqual([`'${id}`, `'${id}`, `'${id}`]);
    // Get-or-create never renames: the first name stays.
    expect(new Set(records.map((record) => record['user group name']))).toEqual(new Set(["'@first"]));
    const shownRequestIds = await rows.locator('td:last-child').allTextContents();
    expect(records.map((record) => record['request id']?.slice(0, 8))).toEqual(shownRequestIds);
  });

  test("sees the directory and a group's history, but no token and no action", async ({ page }) => {
    const support = await apiAs('e2e/.auth/support.json');
    const id = newGroupId('directory-viewer');
    try {
      await postConsole(support, '/api/user-groups/customer/get-or-create', {
        user_group_id: id,
        name: 'Viewer visible',
      });
    } finally {
      await support.dispose();
    }
    await page.goto(`/customer?q=${id}`);
    const row = page.getByTestId('directory-row').filter({ hasText: id });
    await expect(row).toContainText('Viewer visible');
    await row.getByRole('link', { name: id }).click();
    await expect(page.getByRole('region', { name: 'History' })).toContainText('get-or-create');
    await expect(page.getByRole('region', { name: 'Token' })).toContainText('Your role cannot see tokens');
    await expect(page.getByRole('button', { name: /Show token|Rotate|Delete/ })).toHaveCount(0);
    expect((await page.request.get('/customer/new', { maxRedirects: 0 })).status()).toBe(403);
    // The 403 page inside the console's layout: its one <main> (a cold walk, round 3, found two).
    await page.goto('/customer/new');
    await expect(page.getByRole('heading', { name: 'Your role may not open this page' })).toBeVisible();
    await expect(page.getByRole('main')).toHaveCount(1);
  });
});

test('support opens a group from the directory and copies its token again', async ({ page }) => {
  const id = newGroupId('reopen');
  const support = await apiAs('e2e/.auth/support.json');
  let token = '';
  try {
    const created = await postConsole(support, '/api/user-groups/customer/get-or-create', {
      user_group_id: id,
      name: 'Reopen Ltd',
    });
    token = (created.body.user_group as { token: string }).token;
  } finally {
    await support.dispose();
  }
  await page.goto('/customer');
  await page.getByRole('searchbox', { name: 'Find a user group' }).fill('Reopen Ltd');
  // Typing filters the list: wait for it, so the click is not overtaken by the search.
  await expect(page.getByTestId('directory-summary')).toContainText('matching “Reopen Ltd”');
  await page.getByTestId('directory-row').filter({ hasText: id }).getByRole('link', { name: id }).click();
  const panel = page.getByRole('region', { name: 'Token' });
  await panel.getByRole('button', { name: 'Show token' }).click();
  const field = panel.getByRole('group', { name: 'Token' });
  await field.getByRole('button', { name: 'Reveal' }).click();
  await expect(field.getByTestId('secret-value')).toHaveText(token);
  await field.getByRole('button', { name: 'Copy' }).click();
  await expect(field.getByRole('button', { name: 'Copied' })).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(token);
});

apiTest('a cross-origin POST is refused and changes nothing', async ({ playwright }) => {
  const id = newGroupId('evil');
  const evil = await playwright.request.newContext({
    baseURL: consoleUrl,
    storageState: 'e2e/.auth/support.json',
    extraHTTPHeaders: { origin: 'http://evil.example' },
  });
  const viewer = await apiAs(viewerState);
  try {
    for (const [path, data] of [
      ['/api/user-groups/customer/get-or-create', { user_group_id: id }],
      ['/api/user-groups/customer/rotate', { current_token: 'x'.repeat(64) }],
      ['/api/operators', { email: 'evil@e2e.example', name: 'Evil', role: 'admin' }],
      ['/api/auth/sign-out', {}],
    ] as const) {
      const response = await evil.post(path, { data });
      expect(response.status(), path).toBe(403);
      expect((await response.json()).error.code, path).toBe('cross_site_request');
    }
    expect(await auditEntries(viewer, { group: id })).toEqual([]);
    // The session survived the refused sign-out.
    const same = await apiAs('e2e/.auth/support.json');
    expect((await same.get('/api/user-groups/customer')).status()).toBe(200);
    await same.dispose();
  } finally {
    await Promise.all([evil.dispose(), viewer.dispose()]);
  }
});

test('the audit page lists changes first: reads stay on record behind Include reads', async ({ page }) => {
  // A support person's walk, round 3: after ten minutes the first page held 86 entries, mostly reads.
  const id = `reads-${randomUUID().slice(0, 8)}`;
  const created = await page.request.post('/api/user-groups/testing/get-or-create', {
    data: { user_group_id: id },
    headers: { origin: consoleUrl },
  });
  expect(created.status()).toBe(200);
  rememberSecrets(((await created.json()) as { user_group: { token: string } }).user_group.token);
  const shown = await page.request.post('/api/user-groups/testing/show-token', {
    data: { user_group_id: id },
    headers: { origin: consoleUrl },
  });
  expect(shown.status()).toBe(200);
  rememberSecrets(((await shown.json()) as { user_group: { token: string } }).user_group.token);

  await page.goto(`/audit?group=${id}`);
  const results = page.getByRole('region', { name: 'Results' });
  await expect(results.getByText('get-or-create', { exact: true }).first()).toBeVisible();
  await expect(results.getByText('show-token', { exact: true })).toHaveCount(0);
  await page.getByLabel(/Include reads/).check();
  await page.getByRole('button', { name: 'Apply filters' }).click();
  await expect(page).toHaveURL(/reads=include/);
  await expect(results.getByText('show-token', { exact: true }).first()).toBeVisible();
  await expect(page.getByLabel(/Include reads/)).toBeChecked();
  await expectNoSeriousA11yViolations(page, 'the audit log with reads');
});

apiTest(
  'a page opened from a link on another site still opens, and its read entry says so',
  async ({ playwright }) => {
    // Security round 3 (the attacker's pass): another site chose what was read, in the follower's name.
    const viewer = await playwright.request.newContext({ baseURL: consoleUrl, storageState: viewerState });
    try {
      const marker = `elsewhere-${randomUUID().slice(0, 8)}`;
      const page = await viewer.get(`/audit?group=${marker}`, {
        headers: { 'sec-fetch-site': 'cross-site' },
      });
      expect(page.status()).toBe(200);
      const reads = await auditEntries(viewer, { action: 'audit.read', group: '' });
      const entry = reads.find((read) => read.detail?.includes(`group=${marker}`));
      expect(entry?.detail).toContain('opened from a link on another site');
    } finally {
      await viewer.dispose();
    }
  },
);
