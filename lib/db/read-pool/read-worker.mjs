// @ts-check
/**
 * One thread of the read pool (./read-pool.ts): its own read-only connection to the console's SQLite
 * file, answering {id, sql, parameters} with the rows. Plain JavaScript loaded by path, so Next's and
 * esbuild's bundles, the launcher and Vitest start the same file. WAL lets it read what the main
 * connection committed while that one writes.
 */
import { setPriority } from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
import Database from 'better-sqlite3';

if (!parentPort) throw new Error('read-worker.mjs runs as a worker thread of the read pool');
const port = parentPort;

// On Linux a thread has its own nice value: a long read yields the CPU to the thread that answers
// health checks and sign-ins. Raising one's own nice value needs no privilege.
try {
  setPriority(0, 10);
} catch {
  // Another platform: the read runs at the process's priority.
}

const db = new Database(workerData.file, { readonly: true, fileMustExist: true });
db.pragma('busy_timeout = 5000');

/** Prepared once per SQL text: the pages run the same few queries. */
const statements = new Map();
const MAX_STATEMENTS = 128;

/** @param {string} sql */
function statementOf(sql) {
  const cached = statements.get(sql);
  if (cached) return cached;
  const statement = db.prepare(sql);
  if (!statement.reader) throw new Error('the read pool answers reads only');
  statements.set(sql, statement);
  if (statements.size > MAX_STATEMENTS) statements.delete(statements.keys().next().value);
  return statement;
}

// Ready: the pool sends reads from now on.
port.postMessage({ id: 0 });

port.on(
  'message',
  (/** @type {{id: number, sql: string, parameters: unknown[]}} */ { id, sql, parameters }) => {
    try {
      // Row by row rather than all(): the thread returns to JavaScript between rows, where a
      // termination (the time limit) takes effect.
      const rows = [];
      for (const row of statementOf(sql).iterate(parameters)) rows.push(row);
      port.postMessage({ id, rows });
    } catch (error) {
      const { message, code } = /** @type {{message?: string, code?: string}} */ (error);
      port.postMessage({ id, error: { message: String(message ?? error), code } });
    }
  },
);
