/**
 * The stream's reads and writes of the database, apart from the loop that runs them: opening the
 * stream (its row), the next batch, a batch delivered, a failure on record.
 */
import { sql } from 'kysely';
import type { ConsoleDb } from '@/lib/db/console-database';
import { AUDIT_STREAM } from './outbox';

/** Sets the stream up: from now on every audit entry is written to the outbox too. Idempotent. */
export async function openAuditStream(db: ConsoleDb): Promise<void> {
  await db
    .insertInto('audit_stream')
    .values({ name: AUDIT_STREAM, delivered: 0 })
    .onConflict((conflict) => conflict.column('name').doNothing())
    .execute();
}

/**
 * `npm run audit -- stream-off`: the stream is switched off for good, and what it had yet to deliver
 * is dropped (the entries stay in the log). Only by this explicit command: a console started
 * without AUDIT_STREAM_URL on a database shared with streaming consoles leaves the stream alone.
 * Answers how many outbox rows were dropped, or null when no stream was set.
 */
export async function closeAuditStream(db: ConsoleDb): Promise<number | null> {
  return db.transaction().execute(async (trx) => {
    const removed = await trx.deleteFrom('audit_stream').where('name', '=', AUDIT_STREAM).executeTakeFirst();
    if (Number(removed.numDeletedRows) === 0) return null;
    const dropped = await trx.deleteFrom('audit_outbox').executeTakeFirst();
    return Number(dropped.numDeletedRows);
  });
}

export interface OutboxRow {
  id: number;
  body: string;
}

/**
 * The next batch: the outbox in the order the entries were written (entry id, then revision), up to
 * the first row written less than `settleMs` ago. Why wait: ids are handed out at insert and, on
 * PostgreSQL, committed in any order (two consoles, or two requests of one), so an entry with a
 * lower id can appear after a higher one; waiting a moment lets it commit and take its place.
 * Rows are deleted once delivered (no cursor skips past anything), so an entry whose transaction
 * outlasts the delay is never lost either: it arrives a little late, with its own id and key.
 */
export async function nextBatch(db: ConsoleDb, size: number, writtenBy: string): Promise<OutboxRow[]> {
  const rows = await db
    .selectFrom('audit_outbox')
    .select(['id', 'body', 'written_at'])
    .orderBy('entry_id')
    .orderBy('revision')
    .limit(size)
    .execute();
  const settling = rows.findIndex((row) => row.written_at > writtenBy);
  return settling === -1 ? rows : rows.slice(0, settling);
}

/**
 * A batch the endpoint took: its rows leave the outbox, and the stream records it. Answers whether
 * this console still held the lease (if not, another may be sending the same rows now: a duplicate,
 * not a loss).
 */
export async function acknowledgeBatch(
  db: ConsoleDb,
  owner: string,
  ids: number[],
  at: string,
): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const held = await trx
      .updateTable('audit_stream')
      .set({
        delivered: sql<number>`delivered + ${ids.length}`,
        last_delivered_at: at,
        last_failure: null,
        failing_since: null,
      })
      .where('name', '=', AUDIT_STREAM)
      .where('lease_owner', '=', owner)
      .executeTakeFirst();
    await trx.deleteFrom('audit_outbox').where('id', 'in', ids).execute();
    return Number(held.numUpdatedRows) === 1;
  });
}

/** The endpoint refused or could not be reached: on record for the admin's audit page. */
export async function recordFailure(
  db: ConsoleDb,
  owner: string,
  failure: string,
  at: string,
): Promise<void> {
  await db
    .updateTable('audit_stream')
    .set({ last_failure: failure, failing_since: sql<string>`coalesce(failing_since, ${at})` })
    .where('name', '=', AUDIT_STREAM)
    .where('lease_owner', '=', owner)
    .execute();
}
