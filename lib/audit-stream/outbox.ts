/**
 * The write side of the stream: while a stream is set (its `audit_stream` row exists), each audit
 * entry is also written to `audit_outbox`, in the transaction that writes the entry, as the very
 * object the stream will send. A crash, a restart or an endpoint down for days loses nothing: the
 * outbox row stays until it is delivered. With no stream set the write costs a look-up of a
 * one-row table inside its own statement, and nothing is kept.
 *
 * An entry is delivered when written (revision 0) and, if it was written `started`, again when
 * settled (revision 1, its final outcome and facts): a bulk job's entry can stay `started` for
 * hours, and the SIEM sees the attempt at once. Each revision is a snapshot, so a batch sent twice
 * (after a crash) carries the same bytes and the same idempotency key.
 */

import type { ExpressionBuilder, Selectable } from 'kysely';
import type { Clock } from '@/lib/clock';
import type { AuditEventTable, AuditSealTable, ConsoleDb, ConsoleTables } from '@/lib/db/console-database';

/** The one stream (a row of `audit_stream`); a second endpoint would be a second name. */
export const AUDIT_STREAM = 'siem';

type AuditRow = Selectable<AuditEventTable>;

/**
 * What the stream carries for an entry: what the audit page shows (token fingerprints, never
 * tokens), with the kind of object (the audit chain's seals may follow), its revision and the key a
 * receiver deduplicates by: the entry's id, and `:1` for its settlement.
 */
function streamedEntry(row: AuditRow, revision: 0 | 1) {
  return {
    kind: 'audit.entry' as const,
    idempotency_key: `${row.id}:${revision}`,
    id: row.id,
    revision,
    at: row.at,
    action: row.action,
    outcome: row.outcome,
    operator_id: row.operator_id,
    operator_email: row.operator_email,
    environment: row.environment,
    user_group_id: row.user_group_id,
    user_group_name: row.user_group_name,
    request_id: row.request_id,
    token_fingerprint: row.token_fingerprint,
    previous_token_fingerprint: row.previous_token_fingerprint,
    detail: row.detail,
  };
}

/**
 * Whether a stream is set, as a column of the statement that writes or settles the entries
 * (`.returning(streamSet)`): read in that statement, not by a look-up of its own, which cost every
 * entry one more round trip to PostgreSQL (two of a sign-in's fourteen).
 */
export const streamSet = (eb: ExpressionBuilder<ConsoleTables, 'audit_event'>) =>
  eb.exists(eb.selectFrom('audit_stream').select('name').where('name', '=', AUDIT_STREAM)).as('stream_set');

/**
 * `stream_set` as the databases answer it (PostgreSQL: a boolean; SQLite: 1 or 0). Anything else
 * throws, rolling the entry back: misread as "no stream", the entry would reach the log and never
 * the SIEM, silently.
 */
export function isStreamSet(value: unknown): boolean {
  if (value === true || value === 1) return true;
  if (value === false || value === 0) return false;
  throw new Error(`the audit writer could not tell whether a stream is set (stream_set: ${String(value)})`);
}

/**
 * Writes the outbox rows of entries just written or settled; `trx` is the entries' transaction, and
 * each row holds `stream_set` as the statement that wrote it read it.
 */
export async function enqueueStreamed(
  trx: ConsoleDb,
  rows: (AuditRow & { stream_set: unknown })[],
  revision: 0 | 1,
  clock: Pick<Clock, 'now'>,
): Promise<void> {
  if (rows.length === 0 || !isStreamSet(rows[0]?.stream_set)) return;
  const writtenAt = new Date(clock.now()).toISOString();
  const ordered = [...rows].sort((a, b) => a.id - b.id);
  const ROWS_PER_STATEMENT = 500;
  for (let start = 0; start < ordered.length; start += ROWS_PER_STATEMENT)
    await trx
      .insertInto('audit_outbox')
      .values(
        ordered.slice(start, start + ROWS_PER_STATEMENT).map((row) => ({
          kind: 'audit.entry',
          entry_id: row.id,
          revision,
          written_at: writtenAt,
          body: JSON.stringify(streamedEntry(row, revision)),
        })),
      )
      .execute();
}

/**
 * A seal of the audit chain (lib/audit-chain), sent with the entries it covers, after them (filed
 * under its last entry's id, revision 2): the SIEM holds the signed heads, so a log rewritten in
 * the console's database no longer matches what the security team already has. `trx` is the seal's
 * own transaction: a seal is never committed without its outbox row.
 */
export async function enqueueSeal(trx: ConsoleDb, seal: AuditSealTable): Promise<void> {
  const stream = await trx
    .selectFrom('audit_stream')
    .select('name')
    .where('name', '=', AUDIT_STREAM)
    .executeTakeFirst();
  if (!stream) return;
  const { manifest, ...signed } = seal;
  const body = {
    kind: 'audit.seal' as const,
    idempotency_key: `seal:${seal.id}`,
    at: seal.sealed_at,
    ...signed,
    // Each link's hash (and settlement's): with them the SIEM checks every entry it received.
    manifest: JSON.parse(manifest) as unknown,
  };
  await trx
    .insertInto('audit_outbox')
    .values({
      kind: 'audit.seal',
      entry_id: seal.through_id,
      revision: 2,
      written_at: seal.sealed_at,
      body: JSON.stringify(body),
    })
    .execute();
}
