/**
 * WAL checkpoints off the request path. With synchronous=NORMAL a commit only appends to the WAL;
 * copying the WAL back into the database (a checkpoint) is the expensive part, and SQLite's own
 * automatic checkpoint runs inside whichever commit crosses the threshold, on the event loop: it
 * was about half the cost of a rotation, measured. A worker thread with its own connection copies
 * the WAL every 20 ms (PASSIVE: never blocks the server); the server's automatic checkpoint stays as
 * a backstop at 4000 pages, and when the WAL grows past 64 MiB anyway (writes outrunning PASSIVE
 * checkpoints) the worker runs one RESTART checkpoint, which waits briefly for writers so the WAL
 * can start over. Durability is unchanged: a commit is in the WAL before it is answered, whoever
 * checkpoints it later.
 */
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

/** The server connection's automatic checkpoint threshold, in pages (SQLite's default is 1000). */
export const BACKSTOP_AUTOCHECKPOINT_PAGES = 4000;
const CHECKPOINT_INTERVAL_MS = 20;
const RESTART_ABOVE_FRAMES = 16_384;

// Plain CommonJS, so it runs in a worker without a TypeScript loader.
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driverPath);
const db = new Database(workerData.file, { fileMustExist: true });
db.pragma('busy_timeout = 50');
let timer;
const tick = () => {
  try {
    const [result] = db.pragma('wal_checkpoint(PASSIVE)');
    if (result && result.log > workerData.restartAboveFrames) db.pragma('wal_checkpoint(RESTART)');
  } catch {}
  timer = setTimeout(tick, workerData.intervalMs);
};
tick();
parentPort.once('message', () => {
  clearTimeout(timer);
  db.close();
  parentPort.close();
});
`;

export interface Checkpointer {
  stop(): Promise<void>;
}

export function startCheckpointer(file: string): Checkpointer {
  const driverPath = createRequire(import.meta.url).resolve('better-sqlite3');
  const worker = new Worker(WORKER_SOURCE, {
    eval: true,
    workerData: {
      file,
      driverPath,
      intervalMs: CHECKPOINT_INTERVAL_MS,
      restartAboveFrames: RESTART_ABOVE_FRAMES,
    },
  });
  // A failed checkpointer only costs speed: the server's auto-checkpoint takes over.
  worker.on('error', () => {});
  worker.unref();
  const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
  return {
    stop: async () => {
      // Unreferenced while running (it must not keep a process alive), referenced while stopping
      // (so the process does not exit before the worker closed its connection).
      worker.ref();
      worker.postMessage('stop');
      await exited;
    },
  };
}
