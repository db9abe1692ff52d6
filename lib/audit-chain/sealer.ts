/**
 * Seals the audit log in batches: the entries written since the last seal (in id order, as they
 * are now), then a settlement link for each entry that was sealed while `started` and has changed
 * since, each chained to the one before, the batch's head signed (lib/audit-chain/signing-key.ts).
 * Writers never wait for it: an entry is written as before and sealed seconds later.
 *
 * One console at a time: a seal's id is the previous one's plus one, inserted only if no console
 * inserted it first, in the same transaction as the sealer's working set. A console that loses the
 * race writes nothing and starts again from the seal that won.
 *
 * Only entries written more than `settleDelayMs` ago are sealed, and only the run of them from the
 * last seal up to the first younger one: on PostgreSQL a lower id may commit after a higher one, and
 * the delay lets it land first. An id that commits into a sealed range later still is no gap the
 * verifier skips: it is reported as inserted.
 */

import type { AuditEvent } from '@/lib/audit/store';
import { type Clock, realClock } from '@/lib/clock';
import type { AuditSealTable, ConsoleDb } from '@/lib/db/console-database';
import { chainHash, contentHash, fixedHash, GENESIS, type Manifest, yieldToOthers } from './links';
import type { SealSigner } from './signing-key';

/** Entries younger than this are left for the next pass. */
const SETTLE_DELAY_MS = 5_000;
const BATCH = 1_000;
const EVERY_MS = 10_000;
/** A statement's `in (…)` list stays well under either database's limit on parameters. */
const IDS_PER_STATEMENT = 500;

export interface Sealer {
  db: ConsoleDb;
  signer: SealSigner;
  clock?: Clock;
  settleDelayMs?: number;
  batchSize?: number;
  /** Called with each seal this console wrote (a SIEM stream sends it with the entries). */
  onSealed?: (seal: AuditSealTable) => void | Promise<void>;
}

type SealOutcome = { sealed: AuditSealTable } | 'nothing' | 'lost';

export async function eventsById(db: ConsoleDb, ids: number[]): Promise<Map<number, AuditEvent>> {
  const found = new Map<number, AuditEvent>();
  for (let start = 0; start < ids.length; start += IDS_PER_STATEMENT) {
    const rows = await db
      .selectFrom('audit_event')
      .selectAll()
      .where('id', 'in', ids.slice(start, start + IDS_PER_STATEMENT))
      .execute();
    for (const row of rows) found.set(Number(row.id), row);
  }
  return found;
}

/** The newest seal: where the next batch starts. */
async function lastSeal(db: ConsoleDb) {
  return await db
    .selectFrom('audit_seal')
    .select(['id', 'through_id', 'head_hash'])
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
}

/** Writes the next seal, if there is anything to seal; 'lost' when another console wrote it first. */
export async function sealOnce({
  db,
  signer,
  clock = realClock,
  settleDelayMs = SETTLE_DELAY_MS,
  batchSize = BATCH,
}: Sealer): Promise<SealOutcome> {
  const last = await lastSeal(db);
  const id = (last?.id ?? 0) + 1;
  const after = last?.through_id ?? 0;
  // Read after the seal it continues: a console that sealed meanwhile has committed both.
  const open = await db.selectFrom('audit_chain_open').selectAll().orderBy('event_id').execute();
  const cutoff = new Date(clock.now() - settleDelayMs).toISOString();
  const fresh = await db
    .selectFrom('audit_event')
    .selectAll()
    .where('id', '>', after)
    .orderBy('id')
    .limit(batchSize)
    .execute();
  const young = fresh.findIndex((row) => row.at >= cutoff);
  const entries = young < 0 ? fresh : fresh.slice(0, young);

  const current = await eventsById(
    db,
    open.map((row) => row.event_id),
  );
  const settled = open.flatMap((row) => {
    const event = current.get(row.event_id);
    // Gone (the verifier names it) or unchanged: nothing to record.
    if (!event) return [];
    const content = contentHash(event);
    return content === row.content_hash ? [] : [{ event, content }];
  });
  if (entries.length === 0 && settled.length === 0) return 'nothing';

  const manifest: Manifest = { entries: [], settlements: [] };
  let head = last?.head_hash ?? GENESIS;
  const opened: Array<{ event_id: number; content_hash: string }> = [];
  for (const event of entries) {
    const content = contentHash(event);
    head = chainHash(head, 'entry', Number(event.id), content);
    if (event.outcome === 'started') {
      manifest.entries.push([Number(event.id), head, content, fixedHash(event)]);
      opened.push({ event_id: Number(event.id), content_hash: content });
    } else manifest.entries.push([Number(event.id), head]);
  }
  for (const { event, content } of settled) {
    head = chainHash(head, 'settlement', Number(event.id), content);
    manifest.settlements.push([Number(event.id), head, content, event.outcome === 'started']);
  }
  const fields = {
    id,
    after_id: after,
    through_id: entries.length > 0 ? Number(entries.at(-1)?.id) : after,
    entry_count: entries.length,
    previous_hash: last?.head_hash ?? GENESIS,
    head_hash: head,
    sealed_at: new Date(clock.now()).toISOString(),
  };
  const seal: AuditSealTable = {
    ...fields,
    manifest: JSON.stringify(manifest),
    key_id: signer.keyId,
    signature: signer.sign({ ...fields, settlements: settled.length }),
  };
  const won = await db.transaction().execute(async (trx) => {
    const inserted = await trx
      .insertInto('audit_seal')
      .values(seal)
      .onConflict((conflict) => conflict.column('id').doNothing())
      .executeTakeFirst();
    if (Number(inserted.numInsertedOrUpdatedRows ?? 0) !== 1) return false;
    if (opened.length > 0) await trx.insertInto('audit_chain_open').values(opened).execute();
    for (const { event, content } of settled) {
      const eventId = Number(event.id);
      // Settled: any later change is tampering. Still `started`: followed until it settles.
      if (event.outcome !== 'started')
        await trx.deleteFrom('audit_chain_open').where('event_id', '=', eventId).execute();
      else
        await trx
          .updateTable('audit_chain_open')
          .set({ content_hash: content })
          .where('event_id', '=', eventId)
          .execute();
    }
    return true;
  });
  return won ? { sealed: seal } : 'lost';
}

/** Seals until nothing is left (or another console is sealing); answers how many seals it wrote. */
export async function sealAll(sealer: Sealer): Promise<number> {
  let written = 0;
  for (;;) {
    const outcome = await sealOnce(sealer);
    if (typeof outcome === 'string') return written;
    written += 1;
    await sealer.onSealed?.(outcome.sealed);
    await yieldToOthers();
  }
}

/** Seals every few seconds until stopped. */
export function startAuditSealer(
  sealer: Sealer & { log: (message: string, fields: Record<string, unknown>) => void; everyMs?: number },
): { stop(): void } {
  const { clock = realClock, everyMs = EVERY_MS } = sealer;
  const stopped = new AbortController();
  void (async () => {
    while (!stopped.signal.aborted) {
      await clock.sleep(everyMs, stopped.signal);
      if (stopped.signal.aborted) return;
      try {
        await sealAll(sealer);
      } catch (error) {
        // Nothing half-written: a seal and the working set commit together. Next pass again.
        sealer.log('could not seal the audit log', { err: { name: (error as Error)?.name } });
      }
    }
  })();
  return { stop: () => stopped.abort() };
}
