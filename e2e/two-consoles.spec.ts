import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp } from 'node:fs/promises';
import path from 'node:path';
import { type APIRequestContext, expect, request, test } from '@playwright/test';
import type { JobView } from '@/lib/jobs/contract';
import { reachableTestRedis } from '../lib/testing/test-redis';
import { adminCredentials } from './support/auth-states';
import { type CountingProxy, startCountingProxy } from './support/counting-proxy';
import {
  createDatabase,
  databaseUrl,
  dropDatabase,
  e2eAuthSecret,
  e2eOnPostgres,
  queryDatabase,
} from './support/postgres-database';
import { outputOf, serviceCli, startNode, stopProcess, waitForHttp } from './support/processes';
import { consolePort, e2eDataDir } from './support/servers';

/**
 * Several instances behind a load balancer: two consoles, started as `npm start` starts one (the
 * launcher, which migrates and creates the first admin, both at once here), on one PostgreSQL
 * database, one Redis and one User Group Service (behind a proxy that counts the requests per
 * group). What one does, the other sees: the session, the audit log, the directory, signing out,
 * the sign-in limit; and when the console running a bulk job is killed, the other finishes it.
 */
test.skip(!e2eOnPostgres, 'several consoles share a PostgreSQL database: runs in the PostgreSQL pass');
test.use({ storageState: { cookies: [], origins: [] } });

// Beside the run's console port, so parallel runs on other ports do not collide.
const ports = { a: consolePort + 10, b: consolePort + 11, service: consolePort + 12 };
const origin = (port: number) => `http://127.0.0.1:${port}`;
const database = `console_two_${consolePort}`;

test.describe.configure({ mode: 'serial' });

const processes: ChildProcess[] = [];
type ConsoleName = 'a' | 'b';
const consoles = new Map<ConsoleName, { process: ChildProcess; output: () => string }>();
const contexts: APIRequestContext[] = [];
let redisUrl: string | null = null;
let service: ChildProcess | undefined;
let proxy: CountingProxy | undefined;

test.beforeAll(async () => {
  test.setTimeout(240_000);
  redisUrl = await reachableTestRedis();
  const dataDir = await mkdtemp(path.join(e2eDataDir, 'two-consoles-'));
  const serviceDatabase = path.join(dataDir, 'service.sqlite');
  const apiKey = (
    await serviceCli(['keys', 'create', '--environment', 'Testing', '--database', serviceDatabase])
  )
    .trim()
    .split('\n')
    .at(-1);
  expect(apiKey).toBeTruthy();
  await createDatabase(database);
  service = startNode('lib/user-group-service/cli.ts', [
    'serve',
    '--port',
    String(ports.service),
    '--database',
    serviceDatabase,
  ]);
  processes.push(service);
  await waitForHttp(`${origin(ports.service)}/healthz`);
  proxy = await startCountingProxy(origin(ports.service));
  for (const [name, port] of [
    ['a', ports.a],
    ['b', ports.b],
  ] as const) {
    const consoleProcess = startNode('lib/launcher/start.ts', [], {
      PORT: String(port),
      DATA_DIR: path.join(dataDir, `console-${name}`),
      DATABASE_URL: databaseUrl(database),
      BETTER_AUTH_SECRET: e2eAuthSecret,
      ...(redisUrl ? { REDIS_URL: redisUrl } : {}),
      CONSOLE_SIGN_IN_RATE_LIMIT: '5/60',
      // The test plays the proxy: each attempt comes from another client address.
      CONSOLE_TRUSTED_PROXIES: '127.0.0.1',
      USER_GROUP_API_URL: proxy.url,
      USER_GROUP_API_KEY: apiKey,
      USER_GROUP_API_ENVIRONMENT: 'Testing',
      // 10 a second (shared through Redis): a bulk job long enough to kill its console mid-run.
      USER_GROUP_API_REQUESTS_PER_MINUTE: '600',
      CONSOLE_JOB_CONCURRENCY: '4',
    });
    processes.push(consoleProcess);
    consoles.set(name, { process: consoleProcess, output: outputOf(consoleProcess) });
  }
  await Promise.all([waitForHttp(origin(ports.a), 150_000), waitForHttp(origin(ports.b), 150_000)]);
});

test.afterAll(async () => {
  for (const context of contexts) await context.dispose();
  // The service is killed: a graceful stop would wait on the proxy's keep-alive connections.
  for (const child of processes.reverse())
    await stopProcess(child, child === service ? 'SIGKILL' : 'SIGTERM');
  await proxy?.close();
  await dropDatabase(database);
});

// A fresh context per call: cookies are per host, not per port, so nothing is shared by accident.
async function call(
  port: number,
  method: 'GET' | 'POST',
  url: string,
  { cookie = '', data, clientAddress }: { cookie?: string; data?: unknown; clientAddress?: string } = {},
) {
  const context = await request.newContext({ baseURL: origin(port) });
  contexts.push(context);
  return context.fetch(url, {
    method,
    headers: {
      origin: origin(port),
      ...(cookie ? { cookie } : {}),
      ...(clientAddress ? { 'x-forwarded-for': clientAddress } : {}),
    },
    ...(data === undefined ? {} : { data }),
  });
}

/** Signs the first admin in on one console; answers the session's cookie header. */
async function signIn(port: number): Promise<string> {
  const answer = await call(port, 'POST', '/api/auth/sign-in/email', {
    data: { email: adminCredentials.email, password: adminCredentials.password },
  });
  expect(answer.status()).toBe(200);
  const cookie = answer
    .headersArray()
    .filter((header) => header.name.toLowerCase() === 'set-cookie')
    .map((header) => header.value.split(';')[0])
    .join('; ');
  expect(cookie).toMatch(/session_token=/);
  return cookie;
}

test('a session, the audit log and the directory are shared by both consoles', async () => {
  const cookie = await signIn(ports.a);

  // The session made on A is valid on B.
  const onB = await call(ports.b, 'GET', '/api/audit?action=sign-in', { cookie });
  expect(onB.status()).toBe(200);
  expect(((await onB.json()) as { events: unknown[] }).events.length).toBeGreaterThan(0);
  expect((await call(ports.b, 'GET', '/api/audit')).status()).toBe(401);

  // A get-or-create on A is in the audit log and the directory read from B.
  const created = await call(ports.a, 'POST', '/api/user-groups/testing/get-or-create', {
    cookie,
    data: { user_group_id: 'shared-by-two-consoles', name: 'Shared By Two' },
  });
  expect(created.status()).toBe(200);
  const audit = await call(ports.b, 'GET', '/api/audit?group=shared-by-two-consoles', { cookie });
  expect(((await audit.json()) as { events: Array<Record<string, unknown>> }).events).toEqual([
    expect.objectContaining({
      action: 'get-or-create',
      outcome: 'success',
      operator_email: adminCredentials.email,
    }),
  ]);
  const directory = await call(ports.b, 'GET', '/api/user-groups/testing?q=two-consoles', { cookie });
  expect(directory.status()).toBe(200);
  expect(
    ((await directory.json()) as { groups: Array<{ userGroupId: string; name: string }> }).groups,
  ).toEqual([expect.objectContaining({ userGroupId: 'shared-by-two-consoles', name: 'Shared By Two' })]);

  // Signing out on B ends the session on A.
  expect((await call(ports.b, 'POST', '/api/auth/sign-out', { cookie, data: {} })).status()).toBe(200);
  expect((await call(ports.a, 'GET', '/api/audit', { cookie })).status()).toBe(401);
});

test('six sign-in failures for one email spread across both consoles hit the limit (Redis)', async () => {
  test.skip(!redisUrl, 'no Redis answers: the consoles count sign-ins per process');
  // Of its own: runs sharing one Redis never count each other's attempts.
  const email = `spread-${randomBytes(4).toString('hex')}@e2e.example`;
  const statuses: number[] = [];
  for (let attempt = 1; attempt <= 6; attempt++) {
    const answer = await call(attempt % 2 === 0 ? ports.b : ports.a, 'POST', '/api/auth/sign-in/email', {
      data: { email, password: 'not-the-password' },
      clientAddress: `198.51.100.${attempt}`,
    });
    statuses.push(answer.status());
  }
  expect(statuses).toEqual([401, 401, 401, 401, 401, 429]);
});

test('the console running a bulk job is killed (kill -9): the other finishes it, no finished row sent again', async () => {
  test.setTimeout(180_000);
  const rows = 300;
  const text = [
    'user_group_id,name',
    ...Array.from({ length: rows }, (_, n) => `takeover-${n},Group ${n}`),
  ].join('\n');
  const cookie = await signIn(ports.a);
  const created = await call(ports.a, 'POST', '/api/user-groups/testing/jobs/get-or-create', {
    cookie,
    data: { source: 'takeover.csv', csv: text },
  });
  expect(created.status()).toBe(200);
  const { id } = (await created.json()) as { id: string };
  expect(
    (await call(ports.a, 'POST', `/api/jobs/${id}`, { cookie, data: { action: 'start' } })).status(),
  ).toBe(200);
  const job = async (port: number) =>
    (await (await call(port, 'GET', `/api/jobs/${id}`, { cookie })).json()) as JobView;
  // Each runner logs the jobs it takes. A, where it was started, takes it at once, unless B's
  // poll came first: the one running it is the one killed.
  const runs = (name: ConsoleName) =>
    (consoles.get(name)?.output() ?? '')
      .split('\n')
      .some((line) => line.includes(id) && line.includes('bulk job running'));
  await expect.poll(() => runs('a') || runs('b')).toBe(true);
  const killed: ConsoleName = runs('a') ? 'a' : 'b';
  const other: ConsoleName = killed === 'a' ? 'b' : 'a';
  const otherPort = ports[other];
  const victim = consoles.get(killed);
  if (!victim) throw new Error(`console ${killed} was not started`);
  await expect.poll(async () => (await job(otherPort)).counts.done, { timeout: 60_000 }).toBeGreaterThan(60);

  await stopProcess(victim.process, 'SIGKILL');
  const killedAt = performance.now();
  // What the dead console had on record: rows settled, and rows whose request may have been out.
  const left = await queryDatabase<{ user_group_id: string; status: string }>(
    database,
    'select user_group_id, status from bulk_job_row where job_id = $1',
    [id],
  );
  const settledBefore = left.filter((row) => row.status === 'done').map((row) => row.user_group_id);
  const inFlight = new Set(left.filter((row) => row.status === 'sending').map((row) => row.user_group_id));
  expect(settledBefore.length).toBeGreaterThan(60);
  expect(settledBefore.length).toBeLessThan(rows);
  // At most the rows in flight plus the handful claimed ahead of the workers (2 × concurrency).
  expect(inFlight.size).toBeLessThanOrEqual(8);

  // The other console takes the job over once the dead one's lease (10 s) has run out.
  await expect.poll(() => runs(other), { timeout: 30_000 }).toBe(true);
  const takeoverSeconds = (performance.now() - killedAt) / 1000;
  test.info().annotations.push({
    type: 'takeover',
    description: `console ${killed} killed with ${settledBefore.length} rows done; ${other} took over ${takeoverSeconds.toFixed(1)} s later`,
  });
  await expect.poll(async () => (await job(otherPort)).status, { timeout: 120_000 }).toBe('finished');
  expect((await job(otherPort)).counts).toMatchObject({ done: rows, failed: 0 });

  const counts = proxy?.counts ?? new Map<string, number>();
  const ids = [...counts.keys()].filter((groupId) => groupId.startsWith('takeover-'));
  expect(ids).toHaveLength(rows);
  for (const groupId of settledBefore) expect(counts.get(groupId), groupId).toBe(1);
  // Only a row whose request was out when the console died may be sent again, and once at most.
  const sentTwice = ids.filter((groupId) => (counts.get(groupId) ?? 0) > 1);
  test.info().annotations.push({
    type: 'sent again',
    description: `${sentTwice.length} rows, of ${inFlight.size} left sending`,
  });
  expect(sentTwice.every((groupId) => inFlight.has(groupId) && counts.get(groupId) === 2)).toBe(true);
});
