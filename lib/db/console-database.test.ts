import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { CompiledQuery, sql } from 'kysely';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { testClock } from '@/lib/clock';
import {
  createTestDatabaseLocation,
  openTestConsoleDatabase,
  POSTGRES_ADMIN_URL,
  testDialect,
} from '@/lib/testing/console-test-database';
import { afterResetMidQuery } from '@/lib/testing/pg-relay';
import { expectRowsDieYoung } from '@/lib/testing/promoted-by-reads';
import { type ConsoleDatabase, openConsoleDatabase } from './console-database';
import { READ_TIME_LIMIT_MS } from './read-pool/read-pool';

const dir = mkdtempSync(path.join(tmpdir(), 'console-database-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the SQLite console database', () => {
  it('opens with secure_delete on, so an erased secret is overwritten in the file, not only unlinked', async () => {
    const file = path.join(dir, 'console.sqlite');
    const database = openConsoleDatabase({ dialect: 'sqlite', file });
    try {
      const { rows } = await sql<{ secure_delete: number }>`pragma secure_delete`.execute(database.db);
      expect(rows[0]?.secure_delete).toBe(1);
      // The behaviour the pragma buys: a deleted value's bytes are gone from the file and the WAL.
      expect(
        await secretLeftAfter(database, file, async () => {
          await sql`delete from kept`.execute(database.db);
        }),
      ).toBe(false);
    } finally {
      await database.close();
    }
  });

  it('deletes on the write thread with secure_delete on too: an erased secret is gone from the file and the WAL', async () => {
    const file = path.join(dir, 'thread-erases.sqlite');
    const database = openConsoleDatabase({ dialect: 'sqlite', file });
    try {
      expect(
        await secretLeftAfter(database, file, async () => {
          database.startWriteThread(testClock());
          await expect.poll(() => walAutocheckpoint(database)).toBe(0);
          expect(await database.writeTransaction([CompiledQuery.raw('delete from kept')])).toEqual([1]);
        }),
      ).toBe(false);
    } finally {
      await database.close();
    }
  });

  it('begins its transactions with the write lock, so one that reads first waits for the write thread instead of failing', async () => {
    const file = path.join(dir, 'immediate.sqlite');
    const database = openConsoleDatabase({ dialect: 'sqlite', file });
    try {
      await sql`create table counted (n integer)`.execute(database.db);
      await database.db.transaction().execute(async (trx) => {
        const before = await sql<{ n: number }>`select count(*) as n from counted`.execute(trx);
        // Another writer (the write thread is one) cannot begin now. Begun with a plain BEGIN, this
        // transaction would hold no write lock yet: the other could commit between its read and its
        // write, and the write would fail with SQLITE_BUSY_SNAPSHOT instead of waiting.
        const other = new Database(file, { timeout: 0 });
        expect(() => other.exec('begin immediate')).toThrow(/locked|busy/i);
        other.close();
        await sql`insert into counted (n) values (${Number(before.rows[0]?.n) + 1})`.execute(trx);
      });
      const { rows } = await sql<{ n: number }>`select n from counted`.execute(database.db);
      expect(rows.map((row) => row.n)).toEqual([1]);
    } finally {
      await database.close();
    }
  });
});

async function walAutocheckpoint(database: ReturnType<typeof openConsoleDatabase>): Promise<number> {
  const { rows } = await sql<{ wal_autocheckpoint: number }>`pragma wal_autocheckpoint`.execute(database.db);
  return Number(rows[0]?.wal_autocheckpoint);
}

/**
 * Whether a secret's bytes are still in the file or its WAL once `erase` has deleted its row (both
 * checkpointed into the file, before and after).
 */
async function secretLeftAfter(
  database: ReturnType<typeof openConsoleDatabase>,
  file: string,
  erase: () => Promise<void>,
): Promise<boolean> {
  const secret = `sealed-${'x'.repeat(40)}-token`;
  await sql`create table kept (value text)`.execute(database.db);
  await sql`insert into kept (value) values (${secret})`.execute(database.db);
  await sql`pragma wal_checkpoint(TRUNCATE)`.execute(database.db);
  await erase();
  await sql`pragma wal_checkpoint(TRUNCATE)`.execute(database.db);
  return fileBytes(file).includes(secret);
}

function fileBytes(file: string): Buffer {
  return Buffer.concat(
    [file, `${file}-wal`].map((part) => {
      try {
        return readFileSync(part);
      } catch {
        return Buffer.alloc(0);
      }
    }),
  );
}

describe.runIf(testDialect() === 'postgres')('the PostgreSQL console database', () => {
  it('fails a query whose connection is reset, keeps running, and reconnects', async () => {
    const after = await afterResetMidQuery((url) => openConsoleDatabase({ dialect: 'postgres', url }));
    expect(after.failure).toBeInstanceOf(Error);
    expect(after).toMatchObject({ next: [{ one: 1 }], connections: 2 });
  });

  it('compiles no statement with JIT, on the writes’ connections or the reads’, whatever its estimated cost', async () => {
    const database = await openTestConsoleDatabase('console-database-jit');
    try {
      for (const connections of [database.db, database.reads]) {
        const plan = await connections.connection().execute(async (connection) => {
          await sql`set jit_above_cost = 0`.execute(connection);
          const { rows } = await sql<{ jit: string }>`show jit`.execute(connection);
          expect(rows[0]?.jit).toBe('off');
          return sql`explain (analyze, format json) select count(*) from generate_series(1, 1000)`.execute(
            connection,
          );
        });
        // Past jit_above_cost, a server with JIT says so in the plan: compiling is what costs.
        expect(JSON.stringify(plan.rows)).not.toContain('"JIT"');
      }
    } finally {
      await database.dispose();
    }
  });

  it('keeps its own settings when DATABASE_URL carries settings of its own, and keeps the URL’s others', async () => {
    const created = await createTestDatabaseLocation('console-database-url-options', 'postgres');
    const { url } = created.location as { url: string };
    // A schema named the usual way, beside settings that would undo the console's own: in the URL, and
    // in a URL nested in it (pg parses a `connectionString` parameter again, on top).
    const theirs = new URL(url);
    theirs.searchParams.set(
      'options',
      '-c search_path=public,pg_catalog -c jit=on -c default_transaction_read_only=off -c statement_timeout=0',
    );
    theirs.searchParams.set('statement_timeout', '0');
    theirs.searchParams.set('application_name', 'ugc-test');
    const nested = new URL(url);
    nested.searchParams.set('connectionString', theirs.toString());
    nested.searchParams.set('application_name', 'ugc-test');
    nested.searchParams.set('options', '-c search_path=public,pg_catalog');
    const settingsOf = (connections: ConsoleDatabase['db']) =>
      sql<Record<string, string>>`select current_setting('jit') as jit,
          current_setting('search_path') as search_path,
          current_setting('application_name') as application_name,
          current_setting('default_transaction_read_only') as read_only,
          current_setting('statement_timeout') as statement_timeout`.execute(connections);
    try {
      for (const attempt of [theirs, nested]) {
        const database = openConsoleDatabase({ dialect: 'postgres', url: attempt.toString() });
        try {
          const [writes, reads] = await Promise.all([settingsOf(database.db), settingsOf(database.reads)]);
          const kept = { search_path: 'public,pg_catalog', application_name: 'ugc-test' };
          expect(writes.rows[0]).toMatchObject({ ...kept, jit: 'off', read_only: 'off' });
          expect(reads.rows[0]).toMatchObject({
            ...kept,
            jit: 'off',
            read_only: 'on',
            statement_timeout: `${READ_TIME_LIMIT_MS / 1000}s`,
          });
        } finally {
          await database.close();
        }
      }
    } finally {
      await created.dispose();
    }
  });

  it('keeps PGOPTIONS, as pg does without the console, and its own settings after it', async () => {
    const created = await createTestDatabaseLocation('console-database-pgoptions', 'postgres');
    const { url } = created.location as { url: string };
    vi.stubEnv(
      'PGOPTIONS',
      '-c search_path=public,pg_catalog -c jit=on -c default_transaction_read_only=off -c statement_timeout=0',
    );
    const database = openConsoleDatabase({ dialect: 'postgres', url });
    const settingsOf = (connections: ConsoleDatabase['db']) =>
      sql<Record<string, string>>`select current_setting('jit') as jit,
          current_setting('search_path') as search_path,
          current_setting('default_transaction_read_only') as read_only,
          current_setting('statement_timeout') as statement_timeout`.execute(connections);
    try {
      const [writes, reads] = await Promise.all([settingsOf(database.db), settingsOf(database.reads)]);
      expect(writes.rows[0]).toMatchObject({
        search_path: 'public,pg_catalog',
        jit: 'off',
        read_only: 'off',
      });
      expect(reads.rows[0]).toMatchObject({
        search_path: 'public,pg_catalog',
        jit: 'off',
        read_only: 'on',
        statement_timeout: `${READ_TIME_LIMIT_MS / 1000}s`,
      });
    } finally {
      vi.unstubAllEnvs();
      await database.close();
      await created.dispose();
    }
  });

  it('never connects without its own settings when PGOPTIONS ends in an escape that would take them in', async () => {
    // PostgreSQL splits options at spaces, a backslash escaping the next one: the console's first
    // `-c` becomes part of the value before it, and its `name=value` is left bare, which it refuses.
    vi.stubEnv('PGOPTIONS', '-c application_name=x\\');
    const database = openConsoleDatabase({ dialect: 'postgres', url: POSTGRES_ADMIN_URL });
    try {
      for (const connections of [database.db, database.reads]) {
        const failure = await sql`select 1`.execute(connections).catch((error: unknown) => error);
        expect(String((failure as Error).message)).toMatch(/invalid command-line argument/);
      }
    } finally {
      vi.unstubAllEnvs();
      await database.close();
    }
  });

  it('leaves the rest of DATABASE_URL to pg, as without the console: ssl=no-verify still asks for TLS', async () => {
    // This machine's PostgreSQL has no TLS: a pool that dropped the URL's `ssl` would connect in clear.
    const url = new URL(POSTGRES_ADMIN_URL);
    url.searchParams.set('ssl', 'no-verify');
    const database = openConsoleDatabase({ dialect: 'postgres', url: url.toString() });
    try {
      for (const connections of [database.db, database.reads]) {
        const failure = await sql`select 1`.execute(connections).catch((error: unknown) => error);
        expect(String((failure as Error).message)).toMatch(/does not support SSL/);
      }
    } finally {
      await database.close();
    }
  });

  it('lets what its main connections read die young (the sealer’s and a prune’s batches), as pg’s promise form did not', async () => {
    await expectRowsDieYoung('main pool', 'pg promise form');
  }, 60_000);
});
