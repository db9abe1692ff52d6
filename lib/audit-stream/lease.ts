/**
 * Which console sends the stream: the one holding the lease (lib/leases) on the stream's row.
 * Claiming and renewing are one conditional update, so two consoles on one PostgreSQL database never
 * both believe they hold it; a lease that ran out (its console died) is free for another. The
 * holder checks it still holds the lease when it records a batch delivered.
 */
import type { Clock } from '@/lib/clock';
import type { ConsoleDb } from '@/lib/db/console-database';
import { createLease } from '@/lib/leases/lease';
import { AUDIT_STREAM } from './outbox';

export interface StreamLease {
  readonly owner: string;
  /** Takes the lease if free, or renews it if held: answers whether this console holds it now. */
  claim(): Promise<boolean>;
  /** Frees it, unless another console holds it by now. */
  release(): Promise<void>;
}

export function createStreamLease(db: ConsoleDb, leaseMs: number, clock: Clock): StreamLease {
  const lease = createLease(db, { table: 'audit_stream', key: 'name' }, leaseMs, clock);
  return {
    owner: lease.owner,
    claim: () => lease.claim(AUDIT_STREAM),
    release: () => lease.release(AUDIT_STREAM),
  };
}
