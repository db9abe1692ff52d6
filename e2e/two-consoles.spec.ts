import type { ChildProcess } from 'node:child_process';
import { mkdtemp } from 'node:fs/promises';
import path from 'node:path';
import { type APIRequestContext, expect, request, test } from '@playwright/test';
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
 * database and one User Group Service. What one does, the other sees: the session, the audit log,
 * the directory, and signing out.
 */
test.skip(!e2eOnPostgres, 'several consoles share a PostgreSQL database: runs in the PostgreSQL pass');
test.use({ storageState: { cookies: [], origins: [] } });

// Beside the run's console port, so parallel runs on other ports do not collide.
const ports = { a: consolePort + 10, b: consolePort + 11, service: consolePort + 12 };
const origin = (port: number) => `http://127.0.0.1:${port}`;
const database = `console_two_${consolePort}`;

test('two consoles on one PostgreSQL database share sessions, the audit log and the directory', async () => {
  test.setTimeout(240_000);
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

  const processes: ChildProcess[] = [];
  const contexts: APIRequestContext[] = [];
  try {
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
          USER_GROUP_API_URL: origin(ports.service),
          USER_GROUP_API_KEY: apiKey,
          USER_GROUP_API_ENVIRONMENT: 'Testing',
        }),
      );
    }
    await Promise.all([waitForHttp(origin(ports.a), 150_000), waitForHttp(origin(ports.b), 150_000)]);

    // A fresh context per call: cookies are per host, not per port, so nothing is shared by accident.
    const call = async (
      port: number,
      method: 'GET' | 'POST',
      url: string,
      cookie: string,
      data?: unknown,
    ) => {
      const context = await request.newContext({ baseURL: origin(port) });
      contexts.push(context);
      return context.fetch(url, {
        method,
        headers: { origin: origin(port), ...(cookie ? { cookie } : {}) },
        ...(data === undefined ? {} : { data }),
      });
    };

    const signIn = await call(ports.a, 'POST', '/api/auth/sign-in/email', '', {
      email: adminCredentials.email,
      password: adminCredentials.password,
    });
    expect(signIn.status()).toBe(200);
    const cookie = signIn
      .headersArray()
      .filter((header) => header.name.toLowerCase() === 'set-cookie')
      .map((header) => header.value.split(';')[0])
      .join('; ');
    expect(cookie).toMatch(/session_token=/);

    // The session made on A is valid on B.
    const onB = await call(ports.b, 'GET', '/api/audit?action=sign-in', cookie);
    expect(onB.status()).toBe(200);
    expect(((await onB.json()) as { events: unknown[] }).events.length).toBeGreaterThan(0);
    expect((await call(ports.b, 'GET', '/api/audit', '')).status()).toBe(401);

    // A get-or-create on A is in the audit log and the directory read from B.
    const created = await call(ports.a, 'POST', '/api/user-groups/testing/get-or-create', cookie, {
      user_group_id: 'shared-by-two-consoles',
      name: 'Shared By Two',
    });
    expect(created.status()).toBe(200);
    const audit = await call(ports.b, 'GET', '/api/audit?group=shared-by-two-consoles', cookie);
    expect(((await audit.json()) as { events: Array<Record<string, unknown>> }).events).toEqual([
      expect.objectContaining({
        action: 'get-or-create',
        outcome: 'success',
        operator_email: adminCredentials.email,
      }),
    ]);
    const directory = await call(ports.b, 'GET', '/api/user-groups/testing?q=two-consoles', cookie);
    expect(directory.status()).toBe(200);
    expect(
      ((await directory.json()) as { groups: Array<{ userGroupId: string; name: string }> }).groups,
    ).toEqual([expect.objectContaining({ userGroupId: 'shared-by-two-consoles', name: 'Shared By Two' })]);

    // Signing out on B ends the session on A.
    expect((await call(ports.b, 'POST', '/api/auth/sign-out', cookie, {})).status()).toBe(200);
    expect((await call(ports.a, 'GET', '/api/audit', cookie)).status()).toBe(401);
  } finally {
    for (const context of contexts) await context.dispose();
    for (const child of processes.reverse()) await stopProcess(child);
    await dropDatabase(database);
  }
});
