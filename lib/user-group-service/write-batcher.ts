/**
 * Group commit for SQLite. Every SQLite commit pays fixed costs (file locks, WAL frame writes: about
 * a dozen system calls, measured), and a rotation or create is one small statement. Writes that
 * arrive in the same event-loop turn are run in one transaction, committed before any of them is
 * answered, so durability is the same as one commit each. If the batch fails, each write is retried
 * in its own transaction, so one failing write never fails the others. PostgreSQL gets no batching:
 * its pool runs writes in parallel.
 */
import type { Kysely } from 'kysely';
import type { DatabaseSchema } from './database';

type Write<T> = (executor: Kysely<DatabaseSchema>) => Promise<T>;

export interface WriteBatcher {
  run<T>(write: Write<T>): Promise<T>;
}

interface Pending {
  write: Write<unknown>;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

export function createWriteBatcher(db: Kysely<DatabaseSchema>, enabled: boolean): WriteBatcher {
  if (!enabled) return { run: (write) => write(db) };

  let queue: Pending[] = [];

  const runAlone = (item: Pending) => item.write(db).then(item.resolve, item.reject);

  async function flush() {
    const batch = queue;
    queue = [];
    const [only] = batch;
    if (batch.length === 1 && only) {
      await runAlone(only);
      return;
    }
    let results: unknown[];
    try {
      results = await db.transaction().execute(async (transaction) => {
        const done: unknown[] = [];
        for (const item of batch) done.push(await item.write(transaction));
        return done;
      });
    } catch {
      await Promise.all(batch.map(runAlone));
      return;
    }
    batch.forEach((item, index) => {
      item.resolve(results[index]);
    });
  }

  return {
    run<T>(write: Write<T>) {
      return new Promise<T>((resolve, reject) => {
        if (queue.length === 0) setImmediate(flush);
        queue.push({ write, resolve: resolve as (value: unknown) => void, reject });
      });
    },
  };
}
