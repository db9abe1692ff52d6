import type { ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, readFile } from 'node:fs/promises';
import path from 'node:path';
import Database from 'better-sqlite3';
import { parse } from 'csv-parse/sync';
import { realClock } from '@/lib/clock';
import { createUserGroupApi, UpstreamError } from '@/lib/user-group-api/client';
import { adminCredentials } from './support/auth-states';
import { expectNoSeriousA11yViolations } from './support/axe';
import { startCountingProxy } from './support/counting-proxy';
import { consoleApiKeyOf, expect, test } from './support/fixtures';
import { serviceCli, startNode, stopProcess, waitForHttp } from './support/processes';
import { consoleUrl, e2eDataDir } from './support/servers';
import { signInThroughPage } from './support/sign-in';

/** A CSV of `rows` groups, three of them bad (a duplicate id, bad JSON, an over-long name). */
function csvWithThreeBadRows(rows: number, prefix: string): { text: string; badLines: number[] } {
  const lines = ['user_group_id,name,mapping,properties'];
  const badLines: number[] = [];
  for (let n = 0; n < rows; n++) {
    const line = lines.length + 1;
    if (n === 100) {
      lines.push(`${prefix}-0,Duplicate,,`);
      badLines.push(line);
    } else if (n === 250) {
      lines.push(`${prefix}-${n},Bad JSON,"{""schema"": }",`);
      badLines.push(line);
    } else if (n === 400) {
      lines.push(`${prefix}-${n},${'x'.repeat(300)},,`);
      badLines.push(line);
    } else lines.push(`${prefix}-${n},Group ${n},"{""schema_1"": ""ds_${n}""}","{""n"": ${n}}"`);
  }
  return { text: `${lines.join('\n')}\n`, badLines };
}

test('a 500-row CSV: the preview lists exactly its 3 bad rows, the run reaches 100%, every token in the result works', async ({
  page,
}) => {
  test.setTimeout(180_000);
  const prefix = `bulk-${Date.now().toString(36)}`;
  const { text, badLines } = csvWithThreeBadRows(500, prefix);
  await page.goto('/testing/bulk');
  await expectNoSeriousA11yViolations(page, 'the bulk jobs page');
  await page
    .getByLabel('CSV file')
    .setInputFiles({ name: 'onboarding.csv', mimeType: 'text/csv', buffer: Buffer.from(text) });
  await page.getByRole('button', { name: 'Check the file' }).click();

  await expect(page.getByRole('heading', { name: 'Get or create — onboarding.csv' })).toBeVisible();
  await expect(page.getByTestId('job-preview')).toContainText(
    '497 rows are ready to run; 3 rows have problems',
  );
  const badRows = page.getByTestId('invalid-rows').getByRole('row');
  await expect(badRows).toHaveCount(4); // the header and the three
  for (const [index, line] of badLines.entries())
    await expect(
      badRows
        .nth(index + 1)
        .getByRole('cell')
        .first(),
    ).toHaveText(String(line));
  await expect(page.getByTestId('invalid-rows')).toContainText('is also on line 2');
  await expect(page.getByTestId('invalid-rows')).toContainText('mapping is not JSON');
  await expect(page.getByTestId('invalid-rows')).toContainText('at most 255 characters');
  await expectNoSeriousA11yViolations(page, 'a job preview with bad rows');

  await page.getByRole('button', { name: 'Run 497 rows' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Run the job' }).click();
  const progress = page.getByRole('progressbar', { name: 'Rows settled' });
  await expect(progress).toBeVisible();
  await expect(page.getByTestId('job-status')).toHaveText('Finished', { timeout: 120_000 });
  await expect(progress).toHaveAttribute('aria-valuenow', '497');
  await expect(page.getByTestId('job-counts')).toContainText('Failed0');
  await expectNoSeriousA11yViolations(page, 'a finished job');

  // A reload shows the same: the job lives on the server.
  await page.reload();
  await expect(page.getByTestId('job-status')).toHaveText('Finished');

  // The only copy: asked first, and Not now takes nothing.
  await page.getByRole('button', { name: 'Download the result with tokens' }).click();
  const askFirst = page.getByRole('dialog', { name: /Download the only copy of the tokens/ });
  await expect(askFirst).toContainText('the only copy of 497 tokens');
  await expectNoSeriousA11yViolations(page, 'asking before the only copy of the tokens');
  await askFirst.getByRole('button', { name: 'Not now' }).click();
  await expect(page.getByRole('button', { name: 'Download the result with tokens' })).toBeFocused();
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download the result with tokens' }).click();
  await askFirst.getByRole('button', { name: 'Download and erase' }).click();
  const file = await (await download).path();
  const result = parse(await readFile(file, 'utf8'), { columns: true }) as Record<string, string>[];
  // Every line of the file: the rows run, and the three the preview refused, with what is wrong.
  expect(result).toHaveLength(500);
  const refused = result.filter((row) => row.status === 'invalid');
  expect(refused.map((row) => Number(row.line)).sort((a, b) => a - b)).toEqual(
    [...badLines].sort((a, b) => a - b),
  );
  expect(refused.every((row) => row.note !== '' && row.token === '')).toBe(true);
  const run = result.filter((row) => row.status !== 'invalid');
  expect(run).toHaveLength(497);
  expect(run.every((row) => row.status === 'done' && /^[0-9a-f]{64}$/.test(row.token ?? ''))).toBe(true);
  const api = createUserGroupApi({
    baseUrl: serviceUrlOfRun(),
    apiKey: consoleApiKeyOf('Testing'),
    clock: realClock,
  });
  for (const row of run) {
    const group = await politely(() => api.getOrCreate({ user_group_id: row.user_group_id as string }));
    expect(group.new_user_group).toBe(false);
    expect(group.user_group.token).toBe(row.token);
  }
  // Downloaded once, then erased: the console says so and refuses a second copy.
  await expect(page.getByText(/The tokens were downloaded .*and erased/)).toBeVisible();
  const tokensPath = `${new URL(page.url()).pathname.replace('/testing/bulk/', '/api/jobs/')}/tokens`;
  // A link (a GET) or another site's form can take no tokens; a second POST from the console neither.
  const viaLink = await page.request.get(tokensPath);
  expect(viaLink.status()).toBe(405);
  const again = await page.request.post(tokensPath, { headers: { origin: new URL(page.url()).origin } });
  expect(again.status()).toBe(409);
  expect((await again.json()).error.message).toContain('by support@');
});

/** A call to the run's service, waiting out its per-key rate limit (the run's console shares the key). */
async function politely<T>(call: () => Promise<T>): Promise<T> {
  for (;;) {
    try {
      return await call();
    } catch (error) {
      if (!(error instanceof UpstreamError) || error.kind !== 'rate_limited') throw error;
      await new Promise((resolve) => setTimeout(resolve, (error.details.retryAfterSeconds ?? 1) * 1000));
    }
  }
}

/** The embedded service of the run's console: its URL is in the launcher's log line. */
function serviceUrlOfRun(): string {
  const log = readFileSync(path.join(e2eDataDir, 'console.log'), 'utf8');
  const match = /embedded User Group Service on (http:\/\/127\.0\.0\.1:\d+)/.exec(log);
  if (!match?.[1]) throw new Error('the run console did not print its service URL');
  return match[1];
}

test('a console killed mid-run (kill -9) and restarted finishes the job with no finished row sent again', async ({
  page,
}) => {
  test.setTimeout(240_000);
  const dataDir = await mkdtemp(path.join(e2eDataDir, 'bulk-kill-'));
  const serviceDatabase = path.join(dataDir, 'service.sqlite');
  const apiKey = (
    await serviceCli(['keys', 'create', '--environment', 'Testing', '--database', serviceDatabase])
  )
    .trim()
    .split('\n')
    .at(-1) as string;
  const servicePort = 4322;
  const port = 3322;
  const origin = `http://127.0.0.1:${port}`;
  const processes: ChildProcess[] = [];
  const service = startNode('lib/user-group-service/cli.ts', [
    'serve',
    '--port',
    String(servicePort),
    '--database',
    serviceDatabase,
    '--no-rate-limit',
  ]);
  processes.push(service);
  await waitForHttp(`http://127.0.0.1:${servicePort}/healthz`);
  const proxy = await startCountingProxy(`http://127.0.0.1:${servicePort}`);
  const consoleEnv = {
    PORT: String(port),
    DATA_DIR: path.join(dataDir, 'console'),
    USER_GROUP_API_URL: proxy.url,
    USER_GROUP_API_KEY_TESTING: apiKey,
    // 20 a second: long enough a run to kill it in the middle.
    USER_GROUP_API_REQUESTS_PER_MINUTE: '1200',
    CONSOLE_JOB_CONCURRENCY: '4',
  };
  try {
    let consoleProcess = startNode('lib/launcher/start.ts', [], consoleEnv);
    processes.push(consoleProcess);
    await waitForHttp(origin);
    await signInThroughPage(page, adminCredentials, { origin });
    const { text } = csvWithThreeBadRows(500, 'killed');
    const created = await page.request.post(`${origin}/api/user-groups/testing/jobs/get-or-create`, {
      data: { source: 'killed.csv', csv: text },
      headers: { origin },
    });
    expect(created.status()).toBe(200);
    const { id } = (await created.json()) as { id: string };
    const started = await page.request.post(`${origin}/api/jobs/${id}`, {
      data: { action: 'start' },
      headers: { origin },
    });
    expect(started.status()).toBe(200);
    const done = async () =>
      ((await (await page.request.get(`${origin}/api/jobs/${id}`)).json()) as { counts: { done: number } })
        .counts.done;
    await expect.poll(done, { timeout: 60_000 }).toBeGreaterThan(100);

    await stopProcess(consoleProcess, 'SIGKILL');
    // What the dead console had on record: rows settled, and rows whose request may have been out.
    const database = new Database(path.join(dataDir, 'console', 'console.sqlite'), { readonly: true });
    const rows = database
      .prepare('select user_group_id, status from bulk_job_row where job_id = ?')
      .all(id) as {
      user_group_id: string;
      status: string;
    }[];
    database.close();
    const settledBefore = rows.filter((row) => row.status === 'done').map((row) => row.user_group_id);
    const inFlight = new Set(rows.filter((row) => row.status === 'sending').map((row) => row.user_group_id));
    expect(settledBefore.length).toBeGreaterThan(100);
    expect(settledBefore.length).toBeLessThan(497);
    // At most the rows in flight plus the handful claimed ahead of the workers (2 × concurrency).
    expect(inFlight.size).toBeLessThanOrEqual(8);

    consoleProcess = startNode('lib/launcher/start.ts', [], consoleEnv);
    processes.push(consoleProcess);
    await waitForHttp(origin);
    // The session survived the restart (it is in the database); the job resumes on its own.
    await page.goto(`${origin}/testing/bulk/${id}`);
    await expect(page.getByTestId('job-status')).toHaveText('Finished', { timeout: 120_000 });
    await expect(page.getByTestId('job-counts')).toContainText('Done497');

    // Rows only: id-less requests (the header's status probe, counted under '') are no row of the job.
    const sentTwice = [...proxy.counts]
      .filter(([groupId, count]) => groupId !== '' && count > 1)
      .map(([groupId]) => groupId);
    for (const groupId of settledBefore) expect(proxy.counts.get(groupId), groupId).toBe(1);
    // Only a row whose request was out when the console died may be sent again, and once at most.
    expect(sentTwice.every((groupId) => inFlight.has(groupId) && proxy.counts.get(groupId) === 2)).toBe(true);
    const ids = [...proxy.counts.keys()].filter((groupId) => groupId.startsWith('killed-'));
    expect(ids).toHaveLength(497);
  } finally {
    // The service is killed: a graceful stop would wait on the proxy's keep-alive connections.
    for (const child of processes.reverse())
      await stopProcess(child, child === service ? 'SIGKILL' : 'SIGTERM');
    await proxy.close();
  }
});

test('tokens pasted for rotation stay masked until Reveal', async ({ page }) => {
  await page.goto('/testing/bulk');
  const list = page.getByLabel('Tokens to rotate');
  await list.fill('a'.repeat(64));
  const masking = () =>
    list.evaluate((element) => getComputedStyle(element).getPropertyValue('-webkit-text-security'));
  expect(await masking()).toBe('disc');
  await page.getByRole('button', { name: 'Reveal' }).click();
  expect(await masking()).toBe('none');
  await expect(list).toHaveAttribute('autocomplete', 'off');
});

test('in Customer, groups chosen in the directory are rotated after the count is typed: new tokens current, old ones refused', async ({
  page,
}) => {
  test.setTimeout(120_000);
  const api = createUserGroupApi({
    baseUrl: serviceUrlOfRun(),
    apiKey: consoleApiKeyOf('Customer'),
    clock: realClock,
  });
  const prefix = `chosen-${Date.now().toString(36)}`;
  const before = new Map<string, string>();
  for (const n of [1, 2]) {
    const created = await page.request.post('/api/user-groups/customer/get-or-create', {
      data: { user_group_id: `${prefix}-${n}`, name: `Chosen ${n}` },
      headers: { origin: consoleUrl },
    });
    expect(created.status()).toBe(200);
    before.set(
      `${prefix}-${n}`,
      ((await created.json()) as { user_group: { token: string } }).user_group.token,
    );
  }
  await page.goto(`/customer?q=${prefix}`);
  for (const id of before.keys()) await page.getByRole('checkbox', { name: `Select ${id}` }).check();
  await page.getByRole('button', { name: 'Rotate tokens of the selected groups…' }).click();
  await expect(page.getByTestId('job-preview')).toContainText(
    '2 rows are ready to run; no row has a problem.',
  );
  await page.getByRole('button', { name: 'Run 2 rows' }).click();
  const dialog = page.getByRole('dialog');
  const confirm = dialog.getByRole('button', { name: 'Rotate tokens' });
  await expect(confirm).toBeDisabled();
  await dialog.getByLabel('Type 2 to confirm').fill('2');
  await confirm.click();
  await expect(page.getByTestId('job-status')).toHaveText('Finished', { timeout: 60_000 });
  await expectNoSeriousA11yViolations(page, 'a finished rotation job in Customer');

  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download the result with tokens' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Download and erase' }).click();
  const result = parse(await readFile(await (await download).path(), 'utf8'), { columns: true }) as Record<
    string,
    string
  >[];
  expect(result.map((row) => row.user_group_id).sort()).toEqual([...before.keys()].sort());
  for (const row of result) {
    const old = before.get(row.user_group_id as string) as string;
    expect(row.token).not.toBe(old);
    expect((await api.getOrCreate({ user_group_id: row.user_group_id as string })).user_group.token).toBe(
      row.token,
    );
    await expect(api.rotate({ current_token: old })).rejects.toMatchObject({ kind: 'not_found' });
  }
});
