/**
 * The console database a test file runs on: a SQLite file in a fresh temporary directory, or, when
 * CONSOLE_TEST_DATABASE=postgres (the PostgreSQL pass of `npm test`: scripts/test-postgres.ts), a
 * freshly created PostgreSQL database `console_test_<random>`, dropped again by dispose().
 * Every test file gets its own, so files run in parallel without seeing each other's rows.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import {
  type ConsoleDatabase,
  type ConsoleDatabaseLocation,
  openConsoleDatabase,
} from '@/lib/db/console-database';

/** The server to create test databases on: trust auth on loopback, as on the project's machines. */
export const POSTGRES_ADMIN_URL =
  process.env.CONSOLE_TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

export const testDialect = (): 'sqlite' | 'postgres' =>
  process.env.CONSOLE_TEST_DATABASE === 'postgres' ? 'postgres' : 'sqlite';

export interface TestDatabaseLocation {
  location: ConsoleDatabaseLocation;
  /**
   * For a console read from the environment: DATA_DIR (always: secrets live there), and on
   * PostgreSQL DATABASE_URL with the BETTER_AUTH_SECRET it requires.
   */
  env: Record<string, string>;
  dispose(): Promise<void>;
}

export async function createTestDatabaseLocation(
  prefix: string,
  dialect: 'sqlite' | 'postgres' = testDialect(),
): Promise<TestDatabaseLocation> {
  const dataDir = mkdtempSync(path.join(tmpdir(), `${prefix}-`));
  const removeDir = () => rmSync(dataDir, { recursive: true, force: true });
  if (dialect === 'sqlite') {
    return {
      location: { dialect: 'sqlite', file: path.join(dataDir, 'console.sqlite') },
      env: { DATA_DIR: dataDir },
      dispose: async () => removeDir(),
    };
  }
  const name = `console_test_${randomBytes(6).toString('hex')}`;
  await asAdmin((admin) => admin.query(`create database ${name}`));
  const url = new URL(POSTGRES_ADMIN_URL);
  url.pathname = `/${name}`;
  return {
    location: { dialect: 'postgres', url: url.toString() },
    env: {
      DATA_DIR: dataDir,
      DATABASE_URL: url.toString(),
      BETTER_AUTH_SECRET: randomBytes(24).toString('hex'),
    },
    dispose: async () => {
      await asAdmin((admin) => admin.query(`drop database if exists ${name} with (force)`));
      removeDir();
    },
  };
}

/** An open console database of the test's dialect; dispose() closes and removes it. */
export async function openTestConsoleDatabase(
  prefix: string,
  dialect: 'sqlite' | 'postgres' = testDialect(),
): Promise<ConsoleDatabase & { dispose(): Promise<void> }> {
  const created = await createTestDatabaseLocation(prefix, dialect);
  const database = openConsoleDatabase(created.location);
  return {
    ...database,
    dispose: async () => {
      await database.close();
      await created.dispose();
    },
  };
}

async function asAdmin<T>(run: (admin: pg.Client) => Promise<T>): Promise<T> {
  const admin = new pg.Client({ connectionString: POSTGRES_ADMIN_URL, connectionTimeoutMillis: 5_000 });
  try {
    await admin.connect();
  } catch (error) {
    throw new Error(
      `CONSOLE_TEST_DATABASE=postgres but PostgreSQL does not answer at ${new URL(POSTGRES_ADMIN_URL).host} (set CONSOLE_TEST_PG_URL): ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  try {
    return await run(admin);
  } finally {
    await admin.end();
  }
}
