/**
 * The SQLite file holds every group and API key digest: it and its -wal and -shm files are readable
 * by their owner only (0600), also in a directory that already existed, and a looser existing file is
 * tightened when the service opens it.
 */
import { chmodSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase } from './database';
import { migrateToLatest } from './migrations';
import { makeTempDir } from './test-support';

const modeOf = (file: string) => statSync(file).mode & 0o777;

let dir: string;
let removeDir: () => Promise<void>;
let previousUmask: number;

beforeEach(async () => {
  ({ dir, remove: removeDir } = await makeTempDir());
  // The usual umask, under which a file created without a mode is 0644.
  previousUmask = process.umask(0o022);
});

afterEach(async () => {
  process.umask(previousUmask);
  await removeDir();
});

/** Opens the database, writes to it (which creates the -wal and -shm files) and reports the modes. */
async function modesWhileOpen(file: string): Promise<Record<string, number>> {
  const database = openDatabase(file);
  try {
    await migrateToLatest(database.db, database.kind);
    await sql`insert into service_meta (name, value) values ('probe', 'x')`.execute(database.db);
    return Object.fromEntries(['', '-wal', '-shm'].map((suffix) => [suffix, modeOf(`${file}${suffix}`)]));
  } finally {
    await database.close();
  }
}

describe('the SQLite database file', () => {
  it('is created 0600, with its -wal and -shm, in a directory that already exists', async () => {
    const file = path.join(dir, 'service.sqlite');
    expect(await modesWhileOpen(file)).toEqual({ '': 0o600, '-wal': 0o600, '-shm': 0o600 });
  });

  it('is created 0600 in a directory it creates, and the directory 0700', async () => {
    const file = path.join(dir, 'nested', 'service.sqlite');
    expect(await modesWhileOpen(file)).toEqual({ '': 0o600, '-wal': 0o600, '-shm': 0o600 });
    expect(modeOf(path.dirname(file))).toBe(0o700);
  });

  it('is tightened to 0600 when it exists with a looser mode, and so is a leftover -wal', async () => {
    const file = path.join(dir, 'service.sqlite');
    // An empty file is an empty SQLite database, and an empty -wal an empty log.
    for (const existing of [file, `${file}-wal`]) {
      writeFileSync(existing, '');
      chmodSync(existing, 0o644);
    }
    expect(await modesWhileOpen(file)).toEqual({ '': 0o600, '-wal': 0o600, '-shm': 0o600 });
  });
});
