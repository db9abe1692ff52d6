/**
 * PostgreSQL databases of the e2e run. When E2E_DATABASE=postgres (`npm run test:postgres`) the run's
 * console uses `console_e2e_<console port>` (so runs on other ports never share one): the webServer
 * command creates it afresh before the console starts, global teardown drops it. Specs that start
 * consoles of their own (two-consoles.spec.ts) create and drop theirs with the same helpers.
 *
 *   node --import tsx e2e/support/postgres-database.ts create|drop
 */
import pg from 'pg';
import { consolePort } from './servers';

export const e2eOnPostgres = process.env.E2E_DATABASE === 'postgres';
const adminUrl = process.env.CONSOLE_TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
export const runDatabase = `console_e2e_${consolePort}`;
/** Not a secret of any real console: only these throwaway databases' sessions are signed with it. */
export const e2eAuthSecret = 'e2e-better-auth-secret-for-postgres-runs-only';

export function databaseUrl(name: string): string {
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/** The console's variables for the run's database (none on SQLite: DATA_DIR holds it). */
export function e2eDatabaseEnv(): Record<string, string> {
  if (!e2eOnPostgres) return {};
  return { DATABASE_URL: databaseUrl(runDatabase), BETTER_AUTH_SECRET: e2eAuthSecret };
}

/** Drops and creates: a re-run starts empty. */
export async function createDatabase(name: string): Promise<void> {
  await dropDatabase(name);
  await asAdmin((admin) => admin.query(`create database ${name}`));
}

export async function dropDatabase(name: string): Promise<void> {
  await asAdmin((admin) => admin.query(`drop database if exists ${name} with (force)`));
}

export const dropE2eDatabase = () => dropDatabase(runDatabase);

/** The rows a query reads from one of these databases (what a console that was killed left there). */
export async function queryDatabase<Row extends pg.QueryResultRow>(
  name: string,
  text: string,
  values: unknown[] = [],
): Promise<Row[]> {
  const client = new pg.Client({ connectionString: databaseUrl(name), connectionTimeoutMillis: 5_000 });
  await client.connect();
  try {
    return (await client.query<Row>(text, values)).rows;
  } finally {
    await client.end();
  }
}

/**
 * Runs `run` while a transaction of the test's holds `table` of the run's database locked against
 * every reader (ACCESS EXCLUSIVE): a read of it waits until the console's time limit stops it.
 * The lock is given back (rolled back) when `run` ends, however it ends.
 */
export async function whileLocked<T>(table: string, run: () => Promise<T>): Promise<T> {
  const client = new pg.Client({
    connectionString: databaseUrl(runDatabase),
    connectionTimeoutMillis: 5_000,
  });
  await client.connect();
  try {
    await client.query('begin');
    // A lock that cannot be had soon (a transaction left open) fails the test now, not at its timeout.
    await client.query("set local lock_timeout = '10s'");
    await client.query(`lock table ${client.escapeIdentifier(table)} in access exclusive mode`);
    return await run();
  } finally {
    await client.query('rollback').catch(() => {});
    await client.end();
  }
}

async function asAdmin(run: (admin: pg.Client) => Promise<unknown>): Promise<void> {
  const admin = new pg.Client({ connectionString: adminUrl, connectionTimeoutMillis: 5_000 });
  await admin.connect();
  try {
    await run(admin);
  } finally {
    await admin.end();
  }
}

if (process.argv[1]?.endsWith('postgres-database.ts')) {
  const command = process.argv[2];
  await (command === 'create' ? createDatabase(runDatabase) : dropDatabase(runDatabase));
  process.stdout.write(`e2e database ${runDatabase}: ${command === 'create' ? 'created' : 'dropped'}\n`);
}
