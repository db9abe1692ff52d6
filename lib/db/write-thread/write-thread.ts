/**
 * The console's write thread, on SQLite: a worker thread with its own connection to the file, so
 * that work a person does not wait on is not done on the event loop that answers health checks and
 * sign-ins.
 *
 * - **Checkpoints.** SQLite copies its write-ahead log into the database file (with an fsync) on the
 *   commit that takes the log past 1,000 pages, on the connection that made it: for the console, on
 *   the event loop, wherever a write crossed the line (a prune batch of 250 entries at 2M entries
 *   took 29 ms with them, 9 ms without). The thread checkpoints every CHECKPOINT_EVERY_MS instead
 *   (PASSIVE: it neither waits for nor holds up a reader or the writer, only another checkpoint,
 *   and the thread's own batches queue behind it), and the main connection's own checkpoints are
 *   off while it runs.
 * - **Background batches** (retention's deletions): run in one transaction on the thread. The event
 *   loop goes on meanwhile; a write of its own that comes then waits for the batch's commit (about a
 *   batch's time, SQLite's busy wait stepping up to 50 ms at a time; at most busy_timeout, 5 s).
 *
 * Should the thread fail to start or stop, the main connection checkpoints again and the batches run
 * on it: nothing waits on a thread that is gone, and the log never grows unchecked.
 */
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import type BetterSqlite3 from 'better-sqlite3';
import type { CompiledQuery, Kysely } from 'kysely';
import type { Clock } from '@/lib/clock';

/** Often enough that a burst of writes leaves a log of a few megabytes at most between two. */
export const CHECKPOINT_EVERY_MS = 500;
/** Past it (a batch ahead of it included), the thread counts as hung. */
const CHECKPOINT_ANSWER_MS = 30_000;
/** SQLite's own default: what the main connection goes back to without the thread. */
const AUTOCHECKPOINT_PAGES = 1_000;

export interface WriteThread {
  /** Whether its connection is open and it takes the checkpoints and batches. */
  readonly running: boolean;
  /** Each query's changed rows, all in one transaction on the thread (only while it runs). */
  transaction(queries: readonly CompiledQuery[]): Promise<number[]>;
  /** Ends it once what it was given has answered; the main connection checkpoints again. */
  stop(): Promise<void>;
}

type Answer =
  | { id: number; result: unknown }
  | { id: number; changes: number[] }
  | { id: number; error: { message: string; code?: string; kind: string } };

/** `queries` in one transaction on `db`'s own connection (without the thread): each one's changed rows. */
export async function inOneTransaction<Tables>(
  db: Kysely<Tables>,
  queries: readonly CompiledQuery[],
): Promise<number[]> {
  return db.transaction().execute(async (trx) => {
    const changes: number[] = [];
    for (const query of queries) changes.push(Number((await trx.executeQuery(query)).numAffectedRows ?? 0));
    return changes;
  });
}

/** Loaded by path from the source tree, as the read pool's threads are (lib/db/read-pool/read-pool.ts). */
const workerFile = () => path.join(process.cwd(), 'lib', 'db', 'write-thread', 'write-worker.mjs');

/** `sqlite`: the console's main connection to `file`, in WAL mode. */
export function startWriteThread(
  sqlite: BetterSqlite3.Database,
  file: string,
  clock: Clock,
  onFailure: (error: unknown) => void = () => {},
): WriteThread {
  const stopped = new AbortController();
  const worker = new Worker(workerFile(), { workerData: { file } });
  // A console (or a test) that ends does not wait for it.
  worker.unref();
  const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
  let running = false;
  let next = 1;
  const pending = new Map<number, { resolve(answer: Answer): void; reject(error: Error): void }>();
  const mainCheckpoints = (on: boolean) => {
    if (sqlite.open) sqlite.pragma(`wal_autocheckpoint = ${on ? AUTOCHECKPOINT_PAGES : 0}`);
  };
  let ended = false;
  /** The thread is gone: what it was asked and has not answered fails. */
  const end = (error: Error) => {
    if (ended) return;
    ended = true;
    retire();
    for (const waiting of pending.values()) waiting.reject(error);
    pending.clear();
  };
  /** Nothing new for the thread, and the main connection checkpoints again. */
  const retire = () => {
    running = false;
    stopped.abort();
    mainCheckpoints(true);
  };
  const ask = (message: object) =>
    new Promise<Answer>((resolve, reject) => {
      if (!running) return reject(new Error('the write thread is not running'));
      const id = next++;
      pending.set(id, { resolve, reject });
      worker.postMessage({ id, ...message });
    });

  /** Every CHECKPOINT_EVERY_MS until retired; a thread that hangs is as good as gone. */
  const checkpointOnTurn = async () => {
    while (!stopped.signal.aborted) {
      await clock.sleep(CHECKPOINT_EVERY_MS, stopped.signal);
      if (stopped.signal.aborted) return;
      const late = new AbortController();
      const answered = await Promise.race([
        ask({ kind: 'checkpoint' }).then(
          () => true,
          () => true,
        ),
        clock.sleep(CHECKPOINT_ANSWER_MS, late.signal).then(() => false),
      ]);
      late.abort();
      if (!answered && running) {
        const error = new Error('the write thread did not answer a checkpoint in time');
        onFailure(error);
        end(error);
        void worker.terminate();
      }
    }
  };

  worker.on('message', (answer: Answer) => {
    if (answer.id === 0) {
      // Its connection is open: from now on the thread checkpoints, the main connection does not.
      if (ended) return;
      running = true;
      mainCheckpoints(false);
      void checkpointOnTurn();
      return;
    }
    const waiting = pending.get(answer.id);
    pending.delete(answer.id);
    if (!('error' in answer)) return waiting?.resolve(answer);
    const error = Object.assign(new Error(answer.error.message), { code: answer.error.code });
    waiting?.reject(error);
    // A checkpoint that fails (the disk, say): the main connection takes them back. The batches
    // already sent answer first (messages are answered in order), then the thread closes.
    if (answer.error.kind === 'checkpoint' && running) {
      onFailure(error);
      retire();
      worker.postMessage({ kind: 'close' });
    }
  });
  worker.on('error', (error) => {
    onFailure(error);
    end(error);
  });
  worker.on('exit', () => {
    const error = new Error('the write thread stopped');
    // Not stopped, nor retired after a failure already reported: say so.
    if (!stopped.signal.aborted) onFailure(error);
    end(error);
  });

  return {
    get running() {
      return running;
    },
    async transaction(queries) {
      const answer = await ask({
        kind: 'transaction',
        queries: queries.map(({ sql, parameters }) => ({ sql, parameters })),
      });
      return 'changes' in answer ? answer.changes : [];
    },
    async stop() {
      if (running) {
        // What it was given answers first (in order), then its connection closes with nothing
        // open, and it ends.
        retire();
        worker.postMessage({ kind: 'close' });
      } else if (!stopped.signal.aborted) {
        // Still opening its connection: nothing was given to it.
        end(new Error('the write thread was stopped'));
        await worker.terminate();
      }
      await exited;
    },
  };
}
