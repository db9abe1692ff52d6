// @ts-check
/**
 * The console's write thread (./write-thread.ts): its own connection to the SQLite file, answering
 * - {id, kind: 'checkpoint'} with one PASSIVE checkpoint's result: what it can of the write-ahead
 *   log copied into the database file, without waiting for, or holding up, a reader or the writer;
 * - {id, kind: 'transaction', queries} with each query's changed rows, all run in one transaction
 *   (a background job's batch), or with the error that rolled it back;
 * - {kind: 'close'} by closing its connection and ending.
 * Plain JavaScript loaded by path, like the read pool's threads (lib/db/read-pool/read-worker.mjs).
 */
import { parentPort, workerData } from 'node:worker_threads';
import Database from 'better-sqlite3';

if (!parentPort) throw new Error('write-worker.mjs runs as a worker thread');
const port = parentPort;

const db = new Database(workerData.file, { fileMustExist: true });
// As the main connection (lib/db/console-database.ts): a write waits for the other's to end rather
// than fail at once, and an erased secret is overwritten in the file.
db.pragma('busy_timeout = 5000');
db.pragma('synchronous = NORMAL');
db.pragma('foreign_keys = ON');
db.pragma('secure_delete = ON');
// Its own commits leave the log to its checkpoints too.
db.pragma('wal_autocheckpoint = 0');

/** @param {Array<{sql: string, parameters: unknown[]}>} queries */
const inOneTransaction = db.transaction((queries) =>
  queries.map(({ sql, parameters }) => db.prepare(sql).run(parameters).changes),
);

port.postMessage({ id: 0 });

port.on(
  'message',
  (
    /** @type {{id: number, kind: 'checkpoint' | 'transaction' | 'close', queries?: Array<{sql: string, parameters: unknown[]}>}} */ message,
  ) => {
    try {
      if (message.kind === 'close') {
        // The transactions before it have answered: the connection ends with nothing open.
        db.close();
        port.close();
        return;
      }
      if (message.kind === 'checkpoint') {
        const [result] = /** @type {Array<{busy: number, log: number, checkpointed: number}>} */ (
          db.pragma('wal_checkpoint(PASSIVE)')
        );
        port.postMessage({ id: message.id, result });
      } else {
        port.postMessage({ id: message.id, changes: inOneTransaction.immediate(message.queries ?? []) });
      }
    } catch (error) {
      const { message: text, code } = /** @type {{message?: string, code?: string}} */ (error);
      port.postMessage({
        id: message.id,
        error: { message: String(text ?? error), code, kind: message.kind },
      });
    }
  },
);
