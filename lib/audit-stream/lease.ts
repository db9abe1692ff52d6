/**
 * Which console sends the stream: the one holding its lease (the idea of lib/jobs/lease.ts, on the
 * stream's row). Claiming and renewing are one conditional update, so two consoles on one
 * PostgreSQL database never both believe they hold it; a lease that ran out (its console died) is
 * free for another. The holder checks it still holds the lease when it records a batch delivered.
 */
import { randomUUID } from 'node:crypto';
import { type Expression, type SqlBool, sql } from 'kysely';
import type { Clock } from '@/lib/clock';
import type { ConsoleDb } from '@/lib/db/console-database';
import { AUDIT_STREAM } from './outbox';

export interface StreamLease {
  readonly owner: string;
  /** Takes the lease if free, or renews it if held: answers whether this console holds it now. */
  claim(): Promise<boolean>;
  /** Frees it, unless another console holds it by now. */
  release(): Promise<void>;
}

export function createStreamLease(db: ConsoleDb, leaseMs: number, clock: Clock): StreamLease {
  const owner = randomUUID();
  const iso = (ms: number) => new Date(ms).toISOString();
  const free = (now: string): Expression<SqlBool> =>
    sql<SqlBool>`(lease_owner is null or lease_owner = ${owner} or lease_expires_at < ${now})`;
  return {
    owner,
    async claim() {
      const now = clock.now();
      const result = await db
        .updateTable('audit_stream')
        .set({ lease_owner: owner, lease_expires_at: iso(now + leaseMs) })
        .where('name', '=', AUDIT_STREAM)
        .where(free(iso(now)))
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },
    async release() {
      await db
        .updateTable('audit_stream')
        .set({ lease_owner: null, lease_expires_at: null })
        .where('name', '=', AUDIT_STREAM)
        .where('lease_owner', '=', owner)
        .execute()
        .catch(() => undefined);
    },
  };
}
