/**
 * Which console instance runs a job: the one holding its lease (lib/leases) on the job's row. A
 * lease is renewed while its job runs and released when it stops; a lease that ran out (its
 * console died) is free, so another instance takes the job over. Only a running job is claimed.
 */
import type { Clock } from '@/lib/clock';
import { createLease, type HeldLease } from '@/lib/leases/lease';
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

export const createLeases = (jobs: JobsDb, leaseMs: number, clock: Clock): Leases =>
  createLease(
    jobs,
    { table: 'bulk_job', key: 'id', only: { column: 'status', equals: 'running' } },
    leaseMs,
    clock,
  );
