/**
 * `npm run test:postgres`: the console's tests again, on PostgreSQL: the Vitest suites that open the
 * console database (each test file creates its own database, lib/testing/console-test-database.ts,
 * and drops it), then the Playwright journeys that go through every table (playwright.config.ts,
 * E2E_DATABASE=postgres; needs a build: `npm test` runs it after test:e2e). `-- unit` or `-- e2e`
 * runs one of the two. When nothing answers on 127.0.0.1:5432 it prints one line and passes, except
 * in CI (CI=true), where a skipped pass would hide a broken dialect: there it fails.
 */
import { spawn } from 'node:child_process';
import pg from 'pg';
import { POSTGRES_ADMIN_URL } from '@/lib/testing/console-test-database';

/** The suites that open the console database (better-auth, audit, directory, routes, two instances). */
const SUITES = [
  'lib/approvals',
  'lib/audit',
  'lib/audit-stream',
  'lib/audit-chain',
  'lib/directory',
  'lib/auth',
  'lib/server',
  'lib/db',
  'lib/jobs',
  'lib/leases',
  'lib/invitations',
  'lib/operators',
  'lib/passkeys',
  'lib/scim',
  'lib/sessions',
  'lib/tokens',
  'lib/two-factor',
  'lib/upstream-status',
  'lib/user-groups',
];

async function postgresAnswers(): Promise<boolean> {
  const client = new pg.Client({ connectionString: POSTGRES_ADMIN_URL, connectionTimeoutMillis: 3_000 });
  try {
    await client.connect();
    await client.end();
    return true;
  } catch {
    return false;
  }
}

const where = new URL(POSTGRES_ADMIN_URL).host;
if (!(await postgresAnswers())) {
  if (process.env.CI && process.env.CI !== 'false') {
    process.stderr.write(`PostgreSQL pass FAILED: nothing answers at ${where}, and CI must not skip it.\n`);
    process.exit(1);
  }
  process.stdout.write(
    `PostgreSQL pass SKIPPED: nothing answers at ${where} (the console's tests ran on SQLite only).\n`,
  );
  process.exit(0);
}

const only = process.argv[2];
const run = (command: string[], env: Record<string, string>): Promise<number> =>
  new Promise((resolve) => {
    const child = spawn(process.execPath, command, { stdio: 'inherit', env: { ...process.env, ...env } });
    child.on('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });

process.stdout.write(`PostgreSQL pass on ${where}: one database per test file and per e2e run\n`);
if (only !== 'e2e') {
  const code = await run(['node_modules/vitest/vitest.mjs', 'run', ...SUITES], {
    CONSOLE_TEST_DATABASE: 'postgres',
  });
  if (code !== 0) process.exit(code);
}
if (only !== 'unit') {
  const code = await run(['node_modules/@playwright/test/cli.js', 'test'], { E2E_DATABASE: 'postgres' });
  if (code !== 0) process.exit(code);
}
