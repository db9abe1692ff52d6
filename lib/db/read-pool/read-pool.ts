/**
 * A few worker threads, each with its own read-only connection to the console's SQLite file
 * (./read-worker.mjs): the heavy reads (audit pages and exports, directory searches) run there, so
 * better-sqlite3, which is synchronous, never holds the event loop that answers health checks and
 * sign-ins. Every read has a time limit: a worker past it is terminated and replaced, and the
 * read fails with readTooLong().
 */
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { ConsoleError } from '@/lib/console-error';

/** How long one read may run before it is stopped (a statement, not a whole export). */
export const READ_TIME_LIMIT_MS = 5_000;

/**
 * Two threads on the console's two-core machines: four heavy requests take turns on them, and a core
 * is left to the main thread.
 */
const READ_POOL_SIZE = 2;

/**
 * Loaded by path from the source tree, under every runner (next start, the launcher's bundle in
 * dist/, Vitest): `new URL(…, import.meta.url)` would point into a bundle's output, where the
 * file is not. Every runner starts at the project's root.
 */
const readWorkerFile = () => path.join(process.cwd(), 'lib', 'db', 'read-pool', 'read-worker.mjs');

/** What a person reads when a search or a page hit the time limit. */
export const readTooLong = (limitMs: number) =>
  new ConsoleError(
    'read_too_long',
    `This search took too long (over ${limitMs / 1000} s) and was stopped: narrow it (a longer part of the id or name, a person or an action, a shorter time range) and try again.`,
  );

interface ReadPoolOptions {
  /** The SQLite file; the main connection has made it (and its WAL) already. */
  file: string;
  size?: number;
  timeLimitMs?: number;
}

interface Job {
  sql: string;
  parameters: readonly unknown[];
  resolve(rows: unknown[]): void;
  reject(error: unknown): void;
}

interface Slot {
  worker: Worker;
  /** Its connection is open: a read's time counts from here, not from the thread's start. */
  ready: boolean;
  job: { id: number; job: Job; timer: NodeJS.Timeout } | null;
}

export class ReadPool {
  readonly #file: string;
  readonly #timeLimitMs: number;
  readonly #slots: (Slot | null)[];
  readonly #queue: Job[] = [];
  #nextId = 1;
  #closed = false;

  constructor(options: ReadPoolOptions) {
    this.#file = options.file;
    this.#timeLimitMs = options.timeLimitMs ?? READ_TIME_LIMIT_MS;
    this.#slots = Array.from({ length: options.size ?? READ_POOL_SIZE }, () => null);
  }

  /** The rows of one read statement (select, with, explain). */
  run(sql: string, parameters: readonly unknown[]): Promise<unknown[]> {
    if (this.#closed) return Promise.reject(new Error('the read pool is closed'));
    if (!/^\s*(select|with|explain)\b/i.test(sql))
      return Promise.reject(new Error('the read pool answers reads only (select, with, explain)'));
    return new Promise((resolve, reject) => {
      this.#queue.push({ sql, parameters, resolve, reject });
      this.#dispatch();
    });
  }

  async close(): Promise<void> {
    this.#closed = true;
    for (const job of this.#queue.splice(0)) job.reject(new Error('the read pool is closed'));
    await Promise.all(
      this.#slots.map((slot, index) => {
        this.#slots[index] = null;
        if (!slot) return Promise.resolve();
        if (slot.job) {
          clearTimeout(slot.job.timer);
          slot.job.job.reject(new Error('the read pool is closed'));
        }
        return slot.worker.terminate();
      }),
    );
  }

  #dispatch(): void {
    for (let index = 0; index < this.#slots.length && this.#queue.length > 0; index++) {
      const slot = this.#slots[index] ?? this.#start(index);
      if (!slot.ready || slot.job) continue;
      const job = this.#queue.shift() as Job;
      const id = this.#nextId++;
      const timer = setTimeout(() => this.#overrun(index, slot), this.#timeLimitMs);
      slot.job = { id, job, timer };
      slot.worker.postMessage({ id, sql: job.sql, parameters: job.parameters });
    }
  }

  #start(index: number): Slot {
    const worker = new Worker(readWorkerFile(), { workerData: { file: this.#file } });
    // A console (or a test) that ends does not wait for idle readers.
    worker.unref();
    const slot: Slot = { worker, ready: false, job: null };
    worker.on(
      'message',
      (message: { id: number; rows?: unknown[]; error?: { message: string; code?: string } }) => {
        if (message.id === 0) {
          slot.ready = true;
          this.#dispatch();
          return;
        }
        const current = slot.job;
        if (!current || current.id !== message.id) return;
        clearTimeout(current.timer);
        slot.job = null;
        if (message.error)
          current.job.reject(Object.assign(new Error(message.error.message), { code: message.error.code }));
        else current.job.resolve(message.rows ?? []);
        this.#dispatch();
      },
    );
    // The file could not be opened, or the thread died: its read fails, the next read starts a new one.
    worker.on('error', (error) => this.#retire(index, slot, error));
    worker.on('exit', () => this.#retire(index, slot, new Error('a reader of the read pool stopped')));
    this.#slots[index] = slot;
    return slot;
  }

  /**
   * Past the time limit: the read fails and its thread is ended. better-sqlite3 cannot interrupt a
   * statement, but the thread returns to JavaScript between rows, where the termination stops it.
   */
  #overrun(index: number, slot: Slot): void {
    const current = slot.job;
    if (!current) return;
    slot.job = null;
    current.job.reject(readTooLong(this.#timeLimitMs));
    this.#retire(index, slot, null);
    void slot.worker.terminate();
  }

  #retire(index: number, slot: Slot, error: unknown): void {
    if (this.#slots[index] === slot) this.#slots[index] = null;
    if (slot.job) {
      clearTimeout(slot.job.timer);
      slot.job.job.reject(error);
      slot.job = null;
    }
    if (!this.#closed) this.#dispatch();
  }
}
