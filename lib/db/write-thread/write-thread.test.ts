import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { CompiledQuery } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { testClock } from '@/lib/clock';
import { CHECKPOINT_EVERY_MS, startWriteThread } from './write-thread';

const PAGE = 4096;
const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function database() {
  const dir = mkdtempSync(path.join(tmpdir(), 'write-thread-'));
  dirs.push(dir);
  const file = path.join(dir, 'console.db');
  const sqlite = new Database(file);
  sqlite.pragma('journal_mode = WAL');
  sqlite.exec('create table filler (body blob)');
  const write = (pages: number) => {
    const insert = sqlite.prepare('insert into filler (body) values (randomblob(4000))');
    // One commit a page's worth, as the console's writes come: each commit may checkpoint.
    for (let page = 0; page < pages; page++) insert.run();
  };
  const size = (suffix = '') => statSync(`${file}${suffix}`).size;
  const rows = () => sqlite.prepare('select count(*) from filler').pluck().get();
  return { sqlite, file, write, size, rows };
}

/** Once the thread's connection is open, the main connection's own checkpoints are off. */
const started = (sqlite: Database.Database) =>
  expect.poll(() => sqlite.pragma('wal_autocheckpoint', { simple: true })).toBe(0);

describe('the write thread (SQLite)', () => {
  it('leaves the main connection’s commits without a checkpoint, and copies the log on its turn', async () => {
    const { sqlite, file, write, size } = database();
    const clock = testClock();
    const thread = startWriteThread(sqlite, file, clock);
    await started(sqlite);
    const before = size();
    // Past SQLite's 1,000 pages: a connection that checkpoints itself would have copied them by now.
    write(1_500);
    expect(size('-wal')).toBeGreaterThan(1_500 * PAGE);
    expect(size()).toBe(before);

    await clock.sleeping(1);
    await clock.advance(CHECKPOINT_EVERY_MS);
    // On its turn the thread copies the log into the file.
    await expect.poll(() => size()).toBeGreaterThan(before + 1_500 * PAGE);
    await thread.stop();
    sqlite.close();
  });

  it('runs a batch in one transaction of its own, while the event loop goes on', async () => {
    const { sqlite, file, rows } = database();
    const thread = startWriteThread(sqlite, file, testClock());
    await started(sqlite);
    const insert = CompiledQuery.raw('insert into filler (body) values (?)', ['x']);
    // The main connection holds the write lock: on it, the batch would run inside its transaction
    // at once; on the thread it waits for the commit, and the event loop turns meanwhile.
    sqlite.exec('begin immediate');
    let answered = false;
    const batch = thread.transaction([insert, insert]).then((changes) => {
      answered = true;
      return changes;
    });
    for (let turn = 0; turn < 20; turn++) await new Promise((resolve) => setImmediate(resolve));
    expect(answered).toBe(false);
    sqlite.exec('commit');
    expect(await batch).toEqual([1, 1]);
    expect(rows()).toBe(2);

    // A statement that fails rolls the whole batch back, and the thread answers the next one.
    const broken = CompiledQuery.raw('insert into nowhere (body) values (?)', ['x']);
    await expect(thread.transaction([insert, broken])).rejects.toThrow(/no such table/);
    expect(rows()).toBe(2);
    expect(await thread.transaction([insert])).toEqual([1]);
    await thread.stop();
    expect(rows()).toBe(3);
    sqlite.close();
  });

  it('retires a thread that leaves a checkpoint unanswered for 30 s, and gives the checkpoints back', async () => {
    const { sqlite, file } = database();
    const clock = testClock();
    const failures: unknown[] = [];
    const thread = startWriteThread(sqlite, file, clock, (error) => failures.push(error));
    await started(sqlite);
    // The thread is stuck behind a batch that waits for the main connection's lock.
    sqlite.exec('begin immediate');
    const batch = thread
      .transaction([CompiledQuery.raw('insert into filler (body) values (?)', ['x'])])
      .catch((error: Error) => error);
    await clock.sleeping(1);
    await clock.advance(CHECKPOINT_EVERY_MS);
    await clock.sleeping(1);
    await clock.advance(29_999);
    expect(failures).toHaveLength(0);
    await clock.advance(1);
    await expect.poll(() => failures.length).toBe(1);
    expect(thread.running).toBe(false);
    expect(sqlite.pragma('wal_autocheckpoint', { simple: true })).toBe(1_000);
    expect(await batch).toBeInstanceOf(Error);
    sqlite.exec('commit');
    await thread.stop();
    sqlite.close();
  });

  it('gives the checkpoints back to the main connection when stopped, or when the thread cannot start', async () => {
    const { sqlite, file, write, size } = database();
    const thread = startWriteThread(sqlite, file, testClock());
    await started(sqlite);
    await thread.stop();
    expect(thread.running).toBe(false);
    expect(sqlite.pragma('wal_autocheckpoint', { simple: true })).toBe(1_000);
    await expect(thread.transaction([])).rejects.toThrow(/not running/);
    write(1_500);
    expect(size('-wal')).toBeLessThan(1_200 * PAGE);

    const failures: unknown[] = [];
    const missing = startWriteThread(sqlite, path.join(file, 'nowhere.db'), testClock(), (error) =>
      failures.push(error),
    );
    await expect.poll(() => failures.length).toBe(1);
    expect(missing.running).toBe(false);
    expect(sqlite.pragma('wal_autocheckpoint', { simple: true })).toBe(1_000);
    await missing.stop();
    sqlite.close();
  });
});
