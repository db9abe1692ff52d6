/**
 * Which console instance does a piece of work: the one holding its row's lease in the database
 * (a bulk job's row, the audit stream's row). Every change is one conditional update, so two
 * instances sharing one database (PostgreSQL) never both believe they hold a row; a lease that ran
 * out (its console died) is free, so another instance takes the work over. The rows carry two
 * columns, `lease_owner` and `lease_expires_at` (ISO text, compared as text: UTC sorts by time).
 */
import { randomUUID } from 'node:crypto';
import { type QueryExecutorProvider, type RawBuilder, type SqlBool, sql } from 'kysely';
import type { Clock } from '@/lib/clock';

/** The rows a lease is held on. */
export interface LeasedRows {
  table: string;
  /** The column naming a row. */
  key: string;
  /** A row may be claimed only while this column has this value (a job: while it runs). */
  only?: { column: string; equals: string };
}

export interface Lease {
  /** This instance, as lease_owner names it. */
  readonly owner: string;
  /** Rows this instance may claim: no holder, this instance, or a lease that ran out. */
  claimable(): Promise<string[]>;
  /** Takes a row's lease if it is free, or renews it if held: answers whether this instance holds it. */
  claim(key: string): Promise<boolean>;
  /** Keeps renewing a claimed lease (every third of it) until released. */
  hold(key: string): HeldLease;
  /** Frees a row's lease, unless another instance holds it by now. */
  release(key: string): Promise<void>;
}

export interface HeldLease {
  /** False once a renewal found the lease gone (another instance took over) or could not be written. */
  held(): boolean;
  /** Stops renewing and frees the lease, unless another instance holds it by now. */
  release(): Promise<void>;
}

/** `clock`: the wall time a lease's end is written in and compared with (instances share it). */
export function createLease(
  db: QueryExecutorProvider,
  rows: LeasedRows,
  leaseMs: number,
  clock: Clock,
): Lease {
  const owner = randomUUID();
  const table = sql.table(rows.table);
  const key = sql.ref(rows.key);
  const iso = (ms: number) => new Date(ms).toISOString();
  const claimableNow = (): RawBuilder<SqlBool> => {
    const free = sql<SqlBool>`(lease_owner is null or lease_owner = ${owner} or lease_expires_at < ${iso(clock.now())})`;
    return rows.only ? sql<SqlBool>`${sql.ref(rows.only.column)} = ${rows.only.equals} and ${free}` : free;
  };
  const updated = async (query: RawBuilder<unknown>) =>
    Number((await query.execute(db)).numAffectedRows ?? 0) === 1;
  const renew = (row: string) =>
    updated(
      sql`update ${table} set lease_expires_at = ${iso(clock.now() + leaseMs)} where ${key} = ${row} and lease_owner = ${owner}`,
    );
  const release = async (row: string) => {
    // Not worth failing the work's end for: unreleased, the lease runs out by itself.
    await sql`update ${table} set lease_owner = null, lease_expires_at = null where ${key} = ${row} and lease_owner = ${owner}`
      .execute(db)
      .catch(() => undefined);
  };

  return {
    owner,
    async claimable() {
      const { rows: found } = await sql<{
        key: string;
      }>`select ${key} as key from ${table} where ${claimableNow()}`.execute(db);
      return found.map((row) => row.key);
    },
    claim: (row) =>
      updated(
        sql`update ${table} set lease_owner = ${owner}, lease_expires_at = ${iso(clock.now() + leaseMs)} where ${key} = ${row} and ${claimableNow()}`,
      ),
    hold(row) {
      let held = true;
      const stop = new AbortController();
      // A third of the lease: two renewals may fail (a slow database) before it runs out.
      const every = Math.max(50, Math.floor(leaseMs / 3));
      const renewing = (async () => {
        for (;;) {
          await clock.sleep(every, stop.signal);
          if (stop.signal.aborted) return;
          // Once lost, lost: held() stays false even if a later renewal finds the row again.
          if (!(await renew(row).catch(() => false))) held = false;
        }
      })();
      return {
        held: () => held,
        async release() {
          stop.abort();
          // A renewal under way ends first: it cannot then write the lease back after it is freed.
          await renewing;
          await release(row);
        },
      };
    },
    release,
  };
}
