// @ts-check
/**
 * The thread that checkpoints the console's SQLite file (./wal-checkpoints.ts): its own connection,
 * answering each {id} with the result of one PASSIVE checkpoint, which copies what it can of the
 * write-ahead log into the database file without waiting for, or holding up, a reader or the writer.
 * Plain JavaScript loaded by path, like the read pool's threads (lib/db/read-pool/read-worker.mjs).
 */
import { parentPort, workerData } from 'node:worker_threads';
import Database from 'better-sqlite3';

if (!parentPort) throw new Error('checkpoint-worker.mjs runs as a worker thread');
const port = parentPort;

const db = new Database(workerData.file, { fileMustExist: true });
// This connection only checkpoints: never one of its own on a commit, and it makes no commits.
db.pragma('wal_autocheckpoint = 0');

port.postMessage({ id: 0 });

port.on('message', (/** @type {{id: number}} */ { id }) => {
  try {
    const [result] = /** @type {Array<{busy: number, log: number, checkpointed: number}>} */ (
      db.pragma('wal_checkpoint(PASSIVE)')
    );
    port.postMessage({ id, result });
  } catch (error) {
    port.postMessage({ id, error: String(/** @type {Error} */ (error)?.message ?? error) });
  }
});
