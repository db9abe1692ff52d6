/**
 * What the sealer and the verifier read of entries and seals by id, from the signed seals alone: the
 * entries themselves, a seal's manifest where its signature and links hold, and whether an entry may
 * be sealed as settled (it was sealed while started, its fixed fields kept, and settled once).
 */
import type { AuditEvent } from '@/lib/audit/store';
import type { AuditSealTable, ConsoleDb } from '@/lib/db/console-database';
import { anchorOf, signedVersion } from './anchor';
import {
  fixedHash,
  isStartedLink,
  legacyFixedHash,
  type Manifest,
  manifestLeadsTo,
  parseManifest,
  wellFormed,
  yieldToOthers,
} from './links';
import type { SealSigner } from './signing-key';

/** Ids in one `in (…)` list. */
const IDS_PER_STATEMENT = 500;
/** Seals read at a time on a walk forward. */
const SEALS_PER_READ = 20;

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

/**
 * Whether entry `id` may be sealed as settled, from the signed seals alone (never from
 * audit_chain_open, which whoever writes the database writes): the signed seal that sealed it holds
 * it as `started` (a v1 seal's `entry` link with content only where that seal is signed as v1), its
 * fixed fields are as that link has them, and no signed seal since holds its final settlement: an
 * entry is settled once. Answers why not, or null.
 */
export async function refusedSettlement(
  db: ConsoleDb,
  signer: SealSigner,
  event: AuditEvent,
  /** Whether to look for a final settlement since (not needed when the signed open list named it). */
  settledBefore: boolean,
): Promise<string | null> {
  const id = Number(event.id);
  const seal = await db
    .selectFrom('audit_seal')
    .selectAll()
    .where('after_id', '<', id)
    .where('through_id', '>=', id)
    .orderBy('id')
    .limit(1)
    .executeTakeFirst();
  const changed = `entry ${id}, sealed while started, was changed where a settlement never changes it: not sealed`;
  if (!seal) return changed;
  const trusted = trustedManifest(signer, seal);
  const link = trusted?.manifest.entries.find((item) => item[0] === id);
  if (!trusted || !link || link.length === 2)
    return `entry ${id} was not sealed while started: not sealed as settled`;
  const keeps = isStartedLink(link)
    ? fixedHash(event, link[4] === 1) === link[3]
    : trusted.version === 'v1' && legacyFixedHash(event) === link[3];
  if (!keeps) return changed;
  if (!settledBefore) return null;
  let previous = Number(seal.id);
  for (;;) {
    const page = await db
      .selectFrom('audit_seal')
      .selectAll()
      .where('id', '>', previous)
      .orderBy('id')
      .limit(SEALS_PER_READ)
      .execute();
    for (const later of page) {
      const settlements = trustedManifest(signer, later)?.manifest.settlements ?? [];
      if (settlements.some(([settledId, , , stillStarted]) => settledId === id && !stillStarted))
        return `entry ${id} was settled in seal ${later.id} already and was changed since: not sealed again`;
    }
    if (page.length < SEALS_PER_READ) return null;
    previous = Number(page.at(-1)?.id);
    await yieldToOthers();
  }
}

/** A seal's manifest when its signature and its links hold (the link forms of its version), else null. */
export function trustedManifest(
  signer: SealSigner,
  seal: AuditSealTable,
): { manifest: Manifest; version: 'v1' | 'v2' } | null {
  const version = signedVersion(signer, anchorOf(seal));
  if (!version) return null;
  const manifest = parseManifest(seal.manifest);
  if (!wellFormed(manifest, version) || !manifestLeadsTo(seal.previous_hash, manifest, seal.head_hash))
    return null;
  return { manifest, version };
}
