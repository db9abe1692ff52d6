import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { testClock } from '@/lib/clock';
import { CHECKPOINT_EVERY_MS, checkpointInBackground } from './wal-checkpoints';

const PAGE = 4096;
const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function database() {
  const dir = mkdtempSync(path.join(tmpdir(), 'wal-checkpoints-'));
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
  return { sqlite, file, write, size };
}

/** Once the worker's connection is open, the main connection's own checkpoints are off. */
const started = (sqlite: Database.Database) =>
  expect.poll(() => sqlite.pragma('wal_autocheckpoint', { simple: true })).toBe(0);

describe('checkpoints in the background (SQLite)', () => {
  it('leaves the main connection’s commits without a checkpoint, and the thread copies the log on its turn', async () => {
    const { sqlite, file, write, size } = database();
    const clock = testClock();
    const checkpoints = checkpointInBackground(sqlite, file, clock);
    await started(sqlite);
    const before = size();
    // Past SQLite's 1,000 pages: a connection that checkpoints itself would have copied them by now.
    write(1_500);
    expect(size('-wal')).toBeGreaterThan(1_500 * PAGE);
    expect(size()).toBe(before);

    await clock.sleeping(1);
    await clock.advance(CHECKPOINT_EVERY_MS);
    // The loop sleeps again once the thread has answered.
    await clock.sleeping(1);
    expect(size()).toBeGreaterThan(before + 1_500 * PAGE);
    await checkpoints.stop();
    sqlite.close();
  });

  it('gives the checkpoints back to the main connection when stopped, or when the thread cannot start', async () => {
    const { sqlite, file, write, size } = database();
    const checkpoints = checkpointInBackground(sqlite, file, testClock());
    await started(sqlite);
    await checkpoints.stop();
    expect(sqlite.pragma('wal_autocheckpoint', { simple: true })).toBe(1_000);
    write(1_500);
    expect(size('-wal')).toBeLessThan(1_200 * PAGE);

    const failures: unknown[] = [];
    const missing = checkpointInBackground(sqlite, path.join(file, 'nowhere.db'), testClock(), (error) =>
      failures.push(error),
    );
    await expect.poll(() => failures.length).toBe(1);
    expect(sqlite.pragma('wal_autocheckpoint', { simple: true })).toBe(1_000);
    await missing.stop();
    sqlite.close();
  });
});
