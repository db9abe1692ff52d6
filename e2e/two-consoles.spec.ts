import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp } from 'node:fs/promises';
import path from 'node:path';
import { type APIRequestContext, expect, request, test } from '@playwright/test';
import { reachableTestRedis } from '../lib/testing/test-redis';
import { adminCredentials } from './support/auth-states';
import {
  createDatabase,
  databaseUrl,
  dropDatabase,
  e2eAuthSecret,
  e2eOnPostgres,
} from './support/postgres-database';
import { serviceCli, startNode, stopProcess, waitForHttp } from './support/processes';
import { consolePort, e2eDataDir } from './support/servers';

/**
 * Several instances behind a load balancer: two consoles, started as `npm start` starts one (the
 * launcher, which migrates and creates the first admin, both at once here), on one PostgreSQL
 * database, one Redis and one User Group Service. What one does, the other sees: the session, the
 * audit log, the directory, signing out, and the sign-in limit.
 */
test.skip(!e2eOnPostgres, 'several consoles share a PostgreSQL database: runs in the PostgreSQL pass');
test.use({ storageState: { cookies: [], origins: [] } });

// Beside the run's console port, so parallel runs on other ports do not collide.
const ports = { a: consolePort + 10, b: consolePort + 11, service: consolePort + 12 };
const origin = (port: number) => `http://127.0.0.1:${port}`;
const database = `console_two_${consolePort}`;

test.describe.configure({ mode: 'serial' });

const processes: ChildProcess[] = [];
const contexts: APIRequestContext[] = [];
let redisUrl: string | null = null;

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
  processes.push(
    startNode('lib/user-group-service/cli.ts', [
      'serve',
      '--port',
      String(ports.service),
      '--database',
      serviceDatabase,
    ]),
  );
  await waitForHttp(`${origin(ports.service)}/healthz`);
  for (const [name, port] of [
    ['a', ports.a],
    ['b', ports.b],
  ] as const) {
    processes.push(
      startNode('lib/launcher/start.ts', [], {
        PORT: String(port),
        DATA_DIR: path.join(dataDir, `console-${name}`),
        DATABASE_URL: databaseUrl(database),
        BETTER_AUTH_SECRET: e2eAuthSecret,
        ...(redisUrl ? { REDIS_URL: redisUrl } : {}),
        CONSOLE_SIGN_IN_RATE_LIMIT: '5/60',
        // The test plays the proxy: each attempt comes from another client address.
        CONSOLE_TRUSTED_PROXIES: '127.0.0.1',
        USER_GROUP_API_URL: origin(ports.service),
        USER_GROUP_API_KEY: apiKey,
        USER_GROUP_API_ENVIRONMENT: 'Testing',
      }),
    );
  }
  await Promise.all([waitForHttp(origin(ports.a), 150_000), waitForHttp(origin(ports.b), 150_000)]);
});

test.afterAll(async () => {
  for (const context of contexts) await context.dispose();
  for (const child of processes.reverse()) await stopProcess(child);
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

test('a session, the audit log and the directory are shared by both consoles', async () => {
  const signIn = await call(ports.a, 'POST', '/api/auth/sign-in/email', {
    data: { email: adminCredentials.email, password: adminCredentials.password },
  });
  expect(signIn.status()).toBe(200);
  const cookie = signIn
    .headersArray()
    .filter((header) => header.name.toLowerCase() === 'set-cookie')
    .map((header) => header.value.split(';')[0])
    .join('; ');
  expect(cookie).toMatch(/session_token=/);

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
