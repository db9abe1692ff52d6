/**
 * The e2e run's PostgreSQL database, when E2E_DATABASE=postgres (`npm run test:e2e:postgres`):
 * `console_e2e_<console port>`, so runs on other ports never share one. The webServer command creates
 * it afresh before the console starts; global teardown drops it.
 *
 *   node --import tsx e2e/support/postgres-database.ts create|drop
 */
import pg from 'pg';
import { consolePort } from './servers';

export const e2eOnPostgres = process.env.E2E_DATABASE === 'postgres';
const adminUrl = process.env.CONSOLE_TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const name = `console_e2e_${consolePort}`;

/** The console's variables for the run's database (none on SQLite: DATA_DIR holds it). */
export function e2eDatabaseEnv(): Record<string, string> {
  if (!e2eOnPostgres) return {};
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    DATABASE_URL: url.toString(),
    BETTER_AUTH_SECRET: 'e2e-better-auth-secret-for-postgres-runs-only',
  };
}

export async function dropE2eDatabase(): Promise<void> {
  await asAdmin((admin) => admin.query(`drop database if exists ${name} with (force)`));
}

async function createE2eDatabase(): Promise<void> {
  await dropE2eDatabase();
  await asAdmin((admin) => admin.query(`create database ${name}`));
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
  await (command === 'create' ? createE2eDatabase() : dropE2eDatabase());
  process.stdout.write(`e2e database ${name}: ${command === 'create' ? 'created' : 'dropped'}\n`);
}
