import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { openConsoleDatabase } from './console-database';

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
      const secret = `sealed-${'x'.repeat(40)}-token`;
      await sql`create table kept (value text)`.execute(database.db);
      await sql`insert into kept (value) values (${secret})`.execute(database.db);
      await sql`pragma wal_checkpoint(TRUNCATE)`.execute(database.db);
      await sql`delete from kept`.execute(database.db);
      await sql`pragma wal_checkpoint(TRUNCATE)`.execute(database.db);
      const bytes = Buffer.concat(
        [file, `${file}-wal`].map((part) => {
          try {
            return readFileSync(part);
          } catch {
            return Buffer.alloc(0);
          }
        }),
      );
      expect(bytes.includes(secret)).toBe(false);
    } finally {
      await database.close();
    }
  });
});
