/**
 * SQLite copies its write-ahead log into the database file (a checkpoint) on the commit that takes the
 * log past 1,000 pages, on the connection that made it: for the console, on the event loop. That
 * copy and its fsync fell on whichever write crossed the line (a prune batch of 250 entries at 2M
 * entries took 29 ms with them, 9 ms without), and health checks and sign-ins waited behind it.
 *
 * Here a worker thread with its own connection checkpoints every CHECKPOINT_EVERY_MS instead
 * (PASSIVE: it neither waits for nor holds up a reader or the writer), and the main connection's own
 * checkpoints are off while the thread runs. Should the thread fail to start or stop, they are on
 * again: the log never grows unchecked.
 */
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import type BetterSqlite3 from 'better-sqlite3';
import type { Clock } from '@/lib/clock';

/** Often enough that a burst of writes leaves a log of a few megabytes at most between two. */
export const CHECKPOINT_EVERY_MS = 500;
/** SQLite's own default: what the main connection goes back to without the thread. */
const AUTOCHECKPOINT_PAGES = 1_000;

interface Checkpoint {
  /** Non-zero when another connection was checkpointing at the time. */
  busy: number;
  /** Pages in the log, and how many of them are in the database file now. */
  log: number;
  checkpointed: number;
}

export interface BackgroundCheckpoints {
  stop(): Promise<void>;
}

/** Loaded by path from the source tree, as the read pool's threads are (lib/db/read-pool/read-pool.ts). */
const workerFile = () => path.join(process.cwd(), 'lib', 'db', 'wal-checkpoints', 'checkpoint-worker.mjs');

/** `sqlite`: the console's main connection to `file`, in WAL mode. */
export function checkpointInBackground(
  sqlite: BetterSqlite3.Database,
  file: string,
  clock: Clock,
  onFailure: (error: unknown) => void = () => {},
): BackgroundCheckpoints {
  const stopped = new AbortController();
  const worker = new Worker(workerFile(), { workerData: { file } });
  // A console (or a test) that ends does not wait for it.
  worker.unref();
  let next = 1;
  const pending = new Map<number, { resolve(result: Checkpoint): void; reject(error: Error): void }>();
  const mainCheckpoints = (on: boolean) => {
    if (sqlite.open) sqlite.pragma(`wal_autocheckpoint = ${on ? AUTOCHECKPOINT_PAGES : 0}`);
  };
  const end = (error: Error) => {
    if (stopped.signal.aborted) return;
    stopped.abort();
    mainCheckpoints(true);
    for (const waiting of pending.values()) waiting.reject(error);
    pending.clear();
  };
  const checkpoint = () =>
    new Promise<Checkpoint>((resolve, reject) => {
      const id = next++;
      pending.set(id, { resolve, reject });
      worker.postMessage({ id });
    });

  worker.on('message', (message: { id: number; result?: Checkpoint; error?: string }) => {
    if (message.id === 0) {
      // Its connection is open: from now on the thread checkpoints, the main connection does not.
      if (stopped.signal.aborted) return;
      mainCheckpoints(false);
      void (async () => {
        while (!stopped.signal.aborted) {
          await clock.sleep(CHECKPOINT_EVERY_MS, stopped.signal);
          if (stopped.signal.aborted) return;
          await checkpoint().catch(() => {});
        }
      })();
      return;
    }
    const waiting = pending.get(message.id);
    pending.delete(message.id);
    if (message.result) return waiting?.resolve(message.result);
    // A checkpoint that fails (the disk, say): the main connection takes them back.
    const error = new Error(message.error);
    waiting?.reject(error);
    onFailure(error);
    void worker.terminate();
  });
  worker.on('error', (error) => {
    onFailure(error);
    end(error);
  });
  worker.on('exit', () => end(new Error('the checkpoint thread stopped')));

  return {
    async stop() {
      end(new Error('checkpoints stopped'));
      await worker.terminate();
    },
  };
}
