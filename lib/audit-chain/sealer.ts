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
 *
 * Never over what it has sealed before: the sealer continues only from a seal that reaches its
 * checkpoint (anchor.ts: the newest seal it made or verified, kept outside the database). When the
 * database's seals no longer reach it (seals deleted, the chain of seals broken, the database
 * rolled back) it refuses to seal (SealRefused) instead of starting over, and says so loudly. A
 * `started` entry's settlement is sealed only when what a settlement never changes is still as
 * its signed seal has it, and once: which entries are open it reads from the newest seal's signed
 * manifest (v2: the whole manifest is signed), never from audit_chain_open, which whoever writes
 * the database writes. An entry dated past the clock is refused rather than waited for; the seals
 * not moving on for minutes is said every pass (startAuditSealer); the first kept seal moves on only
 * in a console that prunes.
 */

import type { AuditEvent } from '@/lib/audit/store';
import type { Clock } from '@/lib/clock';
import type { AuditSealTable, ConsoleDb } from '@/lib/db/console-database';
import { anchorOf, type Checkpoint, chainFromAnchor, memoryCheckpoint, signedBy } from './anchor';
import {
  chainHash,
  contentHash,
  fixedHash,
  GENESIS,
  type Manifest,
  manifestHash,
  startedValue,
  yieldToOthers,
} from './links';
import { eventsById, refusedSettlement, trustedManifest } from './settled-once';
import type { SealSigner } from './signing-key';

/** Entries younger than this are left for the next pass. */
const SETTLE_DELAY_MS = 5_000;
/** How far past the console's clock an entry's time may be (another console's clock drifting). */
const FUTURE_TOLERANCE_MS = 60_000;
const BATCH = 1_000;

export interface Sealer {
  db: ConsoleDb;
  signer: SealSigner;
  clock: Clock;
  /** What this console has sealed or verified (anchor.ts); a fresh one in memory when not given. */
  checkpoint?: Checkpoint;
  settleDelayMs?: number;
  batchSize?: number;
  /**
   * Runs in the seal's own transaction (the stream's outbox row: a seal the SIEM must get is never
   * committed without it).
   */
  withSeal?: (trx: ConsoleDb, seal: AuditSealTable) => Promise<void>;
  /**
   * Whether this console prunes the audit log (AUDIT_RETENTION_DAYS set; default true). When not,
   * seals gone from the start of the chain are removed by hand: it refuses to seal.
   */
  prunes?: boolean;
  /** A started entry whose fixed fields were changed: not sealed as a settlement, said here. */
  onTampered?: (message: string) => void;
}

/** The database's seals do not reach what this console has sealed: it will not seal over them. */
export class SealRefused extends Error {
  override name = 'SealRefused';
}

type SealOutcome = { sealed: AuditSealTable } | 'nothing' | 'lost';

/**
 * The seal to continue from: the newest in the database, once its chain is known to reach the
 * checkpoint (which then moves on to it). With no checkpoint yet (a console's first start on this
 * database), the newest seal is taken if it is signed by the key.
 */
async function sealToContinue({
  db,
  signer,
  checkpoint,
}: Required<Pick<Sealer, 'db' | 'signer' | 'checkpoint'>>) {
  const known = checkpoint.current();
  if (known) {
    const reached = await chainFromAnchor(db, signer, known);
    if ('broken' in reached)
      throw new SealRefused(
        `the audit log's seals do not reach the last one this console knows: ${reached.broken}`,
      );
    if (Number(reached.newest.id) !== known.id) checkpoint.advance(anchorOf(reached.newest));
    return reached.newest;
  }
  const last = await db
    .selectFrom('audit_seal')
    .selectAll()
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
  if (!last) return undefined;
  const anchor = anchorOf(last);
  if (!signedBy(signer, anchor))
    throw new SealRefused(`seal ${last.id}, the newest, is not signed by this key`);
  checkpoint.advance(anchor);
  return last;
}

/** Writes the next seal, if there is anything to seal; 'lost' when another console wrote it first. */
export async function sealOnce(sealer: Sealer): Promise<SealOutcome> {
  const {
    db,
    signer,
    clock,
    checkpoint = memoryCheckpoint(),
    settleDelayMs = SETTLE_DELAY_MS,
    batchSize = BATCH,
  } = sealer;
  const last = await sealToContinue({ db, signer, checkpoint });
  const id = Number(last?.id ?? 0) + 1;
  const after = Number(last?.through_id ?? 0);
  // What is still open: the newest seal's signed list (v2), never the working set, which whoever
  // writes the database writes; the working set only after a seal made before the list (v1). Read
  // after the seal it continues: a console that sealed meanwhile has committed both.
  const trusted = last ? trustedManifest(signer, last) : null;
  if (last && !trusted)
    throw new SealRefused(`seal ${last.id}, the newest, does not read as signed: its manifest was changed`);
  const signedOpen = trusted?.version === 'v2' ? trusted.manifest.open : undefined;
  // The first kept seal: it moves on only by retention, which this console must run.
  const oldest = await db
    .selectFrom('audit_seal')
    .select(['id', 'after_id'])
    .orderBy('id')
    .limit(1)
    .executeTakeFirst();
  const firstKept = Number(oldest?.id ?? id);
  const signedFirst = trusted?.version === 'v2' ? trusted.manifest.firstSeal : undefined;
  if (signedFirst !== undefined && firstKept > signedFirst && sealer.prunes === false)
    throw new SealRefused(
      `seals ${signedFirst} to ${firstKept - 1} were removed, and this console does not prune the audit log (AUDIT_RETENTION_DAYS unset)`,
    );
  const open = signedOpen
    ? signedOpen.map(([event_id, content_hash]) => ({ event_id, content_hash }))
    : await db.selectFrom('audit_chain_open').selectAll().orderBy('event_id').execute();
  const cutoff = new Date(clock.now() - settleDelayMs).toISOString();
  const fresh = await db
    .selectFrom('audit_event')
    .selectAll()
    .where('id', '>', after)
    .orderBy('id')
    .limit(batchSize)
    .execute();
  // In id order up to the first entry within the settle delay. One dated (or garbled) past the
  // console's clock would hold every later entry back for good, unsealed and editable: refused.
  const young = fresh.findIndex((row) => !(row.at < cutoff));
  const holding = fresh[young];
  if (holding && !(Date.parse(holding.at) <= clock.now() + FUTURE_TOLERANCE_MS))
    throw new SealRefused(
      `entry ${holding.id} is dated ${JSON.stringify(holding.at).slice(0, 40)}, later than this console's clock: it would hold every later entry back from sealing`,
    );
  const entries = young < 0 ? fresh : fresh.slice(0, young);

  const current = await eventsById(
    db,
    open.map((row) => row.event_id),
  );
  const settled: Array<{ event: AuditEvent; content: string }> = [];
  for (const row of open) {
    const event = current.get(row.event_id);
    // Gone (the verifier names it) or unchanged: nothing to record.
    if (!event) continue;
    const content = contentHash(event);
    if (content === row.content_hash) continue;
    // Only a settlement, once: what the signed seals say, never what the working set says.
    const refused = await refusedSettlement(db, signer, event, signedOpen === undefined);
    if (refused) {
      sealer.onTampered?.(refused);
      continue;
    }
    settled.push({ event, content });
  }
  if (entries.length === 0 && settled.length === 0) return 'nothing';

  const manifest: Manifest = { entries: [], settlements: [] };
  let head = last?.head_hash ?? GENESIS;
  const opened: Array<{ event_id: number; content_hash: string }> = [];
  for (const event of entries) {
    const content = contentHash(event);
    const eventId = Number(event.id);
    if (event.outcome === 'started') {
      const groupGiven = event.user_group_id === null ? 0 : 1;
      const fixed = fixedHash(event, groupGiven === 1);
      head = chainHash(head, 'started', eventId, startedValue(content, fixed, groupGiven));
      manifest.entries.push([eventId, head, content, fixed, groupGiven]);
      opened.push({ event_id: eventId, content_hash: content });
    } else {
      head = chainHash(head, 'entry', eventId, content);
      manifest.entries.push([eventId, head]);
    }
  }
  for (const { event, content } of settled) {
    head = chainHash(head, 'settlement', Number(event.id), content);
    manifest.settlements.push([Number(event.id), head, content, event.outcome === 'started']);
  }
  const stillOpen = new Map(open.map((row) => [Number(row.event_id), row.content_hash]));
  for (const row of opened) stillOpen.set(row.event_id, row.content_hash);
  for (const { event, content } of settled)
    if (event.outcome === 'started') stillOpen.set(Number(event.id), content);
    else stillOpen.delete(Number(event.id));
  // An entry pruned with its batch is no longer followed.
  const keptAfter = Number(oldest?.after_id ?? 0);
  manifest.open = [...stillOpen].filter(([eventId]) => eventId > keptAfter).sort(([a], [b]) => a - b);
  manifest.firstSeal = Math.max(signedFirst ?? 1, firstKept);
  const manifestText = JSON.stringify(manifest);
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
    manifest: manifestText,
    key_id: signer.keyId,
    // v2: the whole manifest is signed, every link in its form.
    signature: signer.sign({
      ...fields,
      settlements: settled.length,
      manifest_hash: manifestHash(manifestText),
    }),
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
    await sealer.withSeal?.(trx, seal);
    return true;
  });
  if (!won) return 'lost';
  checkpoint.advance(anchorOf(seal));
  return { sealed: seal };
}

/**
 * Seals until nothing is left (or another console is sealing), a bounded batch at a time with the
 * event loop's other work between them; answers how many seals it wrote. Throws SealRefused.
 */
export async function sealAll(sealer: Sealer): Promise<number> {
  // One checkpoint for the whole run, so that a seal it writes is the next one's anchor.
  const run = { ...sealer, checkpoint: sealer.checkpoint ?? memoryCheckpoint() };
  let written = 0;
  for (;;) {
    const outcome = await sealOnce(run);
    if (typeof outcome === 'string') return written;
    written += 1;
    await yieldToOthers();
  }
}
