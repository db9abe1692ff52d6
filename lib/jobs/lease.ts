/**
 * Which console instance runs a job: the one holding its lease in the database. A lease is renewed
 * while its job runs and released when it stops; a lease that ran out (its console died) is free,
 * so another instance takes the job over. Every change is one conditional update, so two instances
 * (on PostgreSQL, sharing one database) never both believe they hold a job.
 */
import { randomUUID } from 'node:crypto';
import { type Expression, type SqlBool, sql } from 'kysely';
import { type Clock, realClock } from '@/lib/clock';
import type { JobsDb } from './schema';

export interface Leases {
  /** This instance, as lease_owner names it. */
  readonly owner: string;
  /** Running jobs this instance may claim: no holder, this instance, or a lease that ran out. */
  claimable(): Promise<string[]>;
  /** Takes a running job's lease if it is free; answers whether it did. */
  claim(jobId: string): Promise<boolean>;
  /** Keeps renewing a claimed lease until it is released. */
  hold(jobId: string): HeldLease;
}

interface HeldLease {
  /** False once a renewal found the lease gone (another instance took over) or could not be written. */
  held(): boolean;
  /** Stops renewing and frees the lease, unless another instance holds it by now. */
  release(): Promise<void>;
}

/** `clock`: the wall time a lease's end is written in and compared with (instances share it). */
export function createLeases(jobs: JobsDb, leaseMs: number, clock: Clock = realClock): Leases {
  const owner = randomUUID();
  const isoTime = (ms: number) => new Date(ms).toISOString();
  const expiresAt = () => isoTime(clock.now() + leaseMs);
  const free = (now: string): Expression<SqlBool> =>
    sql<SqlBool>`(lease_owner is null or lease_owner = ${owner} or lease_expires_at < ${now})`;

  return {
    owner,
    async claimable() {
      const rows = await jobs
        .selectFrom('bulk_job')
        .select('id')
        .where('status', '=', 'running')
        .where(free(isoTime(clock.now())))
        .execute();
      return rows.map((row) => row.id);
    },
    async claim(jobId) {
      const result = await jobs
        .updateTable('bulk_job')
        .set({ lease_owner: owner, lease_expires_at: expiresAt() })
        .where('id', '=', jobId)
        .where('status', '=', 'running')
        .where(free(isoTime(clock.now())))
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },
    hold(jobId) {
      let held = true;
      const ours = () =>
        jobs.updateTable('bulk_job').where('id', '=', jobId).where('lease_owner', '=', owner);
      const stop = new AbortController();
      // A third of the lease: two renewals may fail (a slow database) before it runs out.
      const every = Math.max(50, Math.floor(leaseMs / 3));
      const renewing = (async () => {
        for (;;) {
          await clock.sleep(every, stop.signal);
          if (stop.signal.aborted) return;
          try {
            const result = await ours().set({ lease_expires_at: expiresAt() }).executeTakeFirst();
            if (Number(result.numUpdatedRows) === 0) held = false;
          } catch {
            held = false;
          }
        }
      })();
      return {
        held: () => held,
        async release() {
          stop.abort();
          // A renewal under way ends first: it cannot then write the lease back after it is freed.
          await renewing;
          // Not worth failing a job's end for: unreleased, the lease runs out by itself.
          await ours()
            .set({ lease_owner: null, lease_expires_at: null })
            .execute()
            .catch(() => undefined);
        },
      };
    },
  };
}
