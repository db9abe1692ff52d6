/**
 * How the stream is doing, read from the database (every console sees the same): for /metrics
 * (streamer.ts sets the gauges), the admin's audit page (one line), and retention (streamedThrough).
 * Reading only: nothing here writes.
 */
import type { ConsoleDb } from '@/lib/db/console-database';
import { AUDIT_STREAM } from './outbox';

/** Pending rows are counted up to this many: an endpoint down for a week must not cost a long count. */
const PENDING_COUNT_LIMIT = 100_000;

export interface StreamStatus {
  /** Outbox rows not yet delivered, counted up to PENDING_COUNT_LIMIT. */
  pending: number;
  /** How long the oldest of them has waited, in seconds; 0 when none waits. */
  lagSeconds: number;
  lastDeliveredAt: string | null;
  /** "answering 503", "unreachable", "timed out"; null while delivering. */
  failure: string | null;
  failingSince: string | null;
}

/** null when no stream is set. */
export async function readStreamStatus(db: ConsoleDb, now: number): Promise<StreamStatus | null> {
  const stream = await db
    .selectFrom('audit_stream')
    .select(['last_delivered_at', 'last_failure', 'failing_since'])
    .where('name', '=', AUDIT_STREAM)
    .executeTakeFirst();
  if (!stream) return null;
  const [oldest, counted] = await Promise.all([
    db.selectFrom('audit_outbox').select('written_at').orderBy('id').limit(1).executeTakeFirst(),
    db
      .selectFrom(db.selectFrom('audit_outbox').select('id').limit(PENDING_COUNT_LIMIT).as('pending'))
      .select((eb) => eb.fn.countAll().as('count'))
      .executeTakeFirstOrThrow(),
  ]);
  return {
    pending: Number(counted.count),
    lagSeconds: oldest ? Math.max(0, (now - Date.parse(oldest.written_at)) / 1000) : 0,
    lastDeliveredAt: stream.last_delivered_at,
    failure: stream.last_failure,
    failingSince: stream.failing_since,
  };
}

/** Behind by less than this reads as up to date: rows wait a second to settle (delivery.ts). */
const UP_TO_DATE_SECONDS = 10;

function behind(seconds: number): string {
  if (seconds < 120) return `${Math.round(seconds)} s behind`;
  if (seconds < 7_200) return `${Math.round(seconds / 60)} min behind`;
  if (seconds < 172_800) return `${Math.round(seconds / 3_600)} h behind`;
  return `${Math.round(seconds / 86_400)} days behind`;
}

/** The audit page's line: "streaming: up to date", "streaming: 3 min behind, endpoint answering 503". */
export function describeStreamStatus(status: StreamStatus): string {
  const lag =
    status.lagSeconds < UP_TO_DATE_SECONDS && status.failure === null
      ? 'up to date'
      : behind(status.lagSeconds);
  return `streaming: ${lag}${status.failure ? `, endpoint ${status.failure}` : ''}`;
}

/**
 * The highest audit entry id the stream has delivered, every entry below it included (the lowest
 * one still in the outbox, less one; or, with none waiting, the newest entry): retention prunes no
 * further. null when no stream is set (then nothing holds retention back). Entries written before
 * the stream was set were never to be streamed, so they count as through.
 */
export async function streamedThrough(db: ConsoleDb): Promise<number | null> {
  const stream = await db
    .selectFrom('audit_stream')
    .select('name')
    .where('name', '=', AUDIT_STREAM)
    .executeTakeFirst();
  if (!stream) return null;
  const waiting = await db
    .selectFrom('audit_outbox')
    .select((eb) => eb.fn.min('entry_id').as('lowest'))
    .where('kind', '=', 'audit.entry')
    .executeTakeFirst();
  if (waiting?.lowest != null) return Number(waiting.lowest) - 1;
  const newest = await db
    .selectFrom('audit_event')
    .select((eb) => eb.fn.max('id').as('newest'))
    .executeTakeFirst();
  return Number(newest?.newest ?? 0);
}

/** The line the admin reads on the audit page, with the stream set (its row is written as it starts). */
export async function streamStatusLine(db: ConsoleDb, now: number): Promise<string> {
  const status = await readStreamStatus(db, now);
  return status ? describeStreamStatus(status) : 'streaming: starting';
}
