import type { ConsoleDb } from '@/lib/db/console-database';
import { type SealAnchor, signedBy, signedVersion } from './anchor';
import type { ChainReport } from './contract';
import { wellFormed } from './links';
import type { SealVerifier } from './signing-key';
import {
  checkSettled,
  type Expectation,
  Findings,
  type Seal,
  sealsInOrder,
  type VerifiedPoint,
  walkBatch,
} from './verify-walk';

export type { VerifiedPoint } from './verify-walk';

export interface VerifyOptions {
  /** A seal kept outside the database that its seals must reach. */
  anchor?: SealAnchor | null;
  /** Carry on from a point verified before: only the seals after it are read. */
  from?: VerifiedPoint | null;
}

export async function verifyAuditChain(
  db: ConsoleDb,
  verifier: SealVerifier,
  options: VerifyOptions = {},
): Promise<ChainReport> {
  return (await verifyAuditChainFrom(db, verifier, options)).report;
}

export async function verifyAuditChainFrom(
  db: ConsoleDb,
  verifier: SealVerifier,
  { anchor = null, from = null }: VerifyOptions = {},
): Promise<{ report: ChainReport; point: VerifiedPoint | null }> {
  const findings = new Findings();
  const expectations = new Map<number, Expectation>(from?.expectations ?? []);
  let previous: Pick<Seal, 'id' | 'through_id' | 'head_hash'> | null = null;
  let first: Seal | null = null;
  let seals = 0;
  let entries = 0;
  if (from) {
    const kept = await db
      .selectFrom('audit_seal')
      .select(['id', 'through_id', 'head_hash'])
      .where('id', '=', from.seal.id)
      .executeTakeFirst();
    if (!kept || kept.head_hash !== from.seal.head_hash)
      findings.add(
        'seal',
        null,
        from.seal.id,
        from.seal.through_id + 0.5,
        `seal ${from.seal.id}, verified before, was removed or changed`,
      );
    previous = { ...from.seal };
  }
  let anchorReached = false;
  /** The first kept seal as the newest v2 seal walked records it (undefined: none walked). */
  let recordedFirst: number | undefined;
  for await (const seal of sealsInOrder(db, from?.seal.id ?? 0)) {
    seals += 1;
    // A seal's own problem sorts after its entries': an entry named is the more useful answer.
    const at = seal.through_id + 0.5;
    if (!first && !from) {
      const before = await db
        .selectFrom('audit_event')
        .select('id')
        .where('id', '<=', seal.after_id)
        .orderBy('id')
        .limit(1)
        .executeTakeFirst();
      if (before)
        findings.add(
          'inserted',
          Number(before.id),
          null,
          Number(before.id),
          `entry ${before.id} was inserted before the first seal`,
        );
    } else if (
      previous &&
      (seal.id !== previous.id + 1 ||
        seal.after_id !== previous.through_id ||
        seal.previous_hash !== previous.head_hash)
    ) {
      findings.add(
        'seal',
        null,
        seal.id,
        at,
        `the seals before seal ${seal.id} were removed or changed (entries after ${previous.through_id})`,
      );
    }
    first ??= seal;
    const version = signedVersion(verifier, { ...seal, settlements: seal.manifest.settlements.length });
    // The link forms are as signed (v2) or as v1 wrote them: a v2 seal never holds a v1 link.
    if (!version || !wellFormed(seal.manifest, version) || seal.entry_count !== seal.manifest.entries.length)
      findings.add(
        'seal',
        null,
        seal.id,
        at,
        `seal ${seal.id} (entries ${seal.after_id + 1} to ${seal.through_id}) is not signed by this key as it reads now`,
      );
    if (anchor && seal.id === anchor.id) {
      anchorReached = seal.head_hash === anchor.head_hash && seal.through_id === anchor.through_id;
      if (!anchorReached)
        findings.add('seal', null, seal.id, at, `seal ${seal.id} differs from the anchor's copy of it`);
    }
    const rows = await db
      .selectFrom('audit_event')
      .selectAll()
      .where('id', '>', seal.after_id)
      .where('id', '<=', seal.through_id)
      .orderBy('id')
      .execute();
    entries += rows.length;
    const complete = from === null && first.id === 1;
    if (walkBatch(seal, rows, expectations, findings, complete, version) !== seal.head_hash)
      findings.add('seal', null, seal.id, at, `seal ${seal.id}'s links do not lead to its head`);
    if (version === 'v2') recordedFirst = seal.manifest.firstSeal;
    previous = seal;
  }
  // An anchor older than the first kept seal was pruned with its batch (AUDIT_RETENTION_DAYS).
  const pruned = first !== null && !from && anchor !== null && anchor.id < first.id;
  if (anchor && !pruned) checkAnchor(anchor, verifier, previous, from, anchorReached, findings);
  const pending = await checkSettled(db, expectations, findings);
  if (!from && first && recordedFirst !== undefined && first.id > recordedFirst) {
    // Retention records what it pruned in the next seal; until then its `audit.prune` entry is
    // started, or settled and not sealed yet.
    const through = previous?.through_id ?? 0;
    const pruning = await db
      .selectFrom('audit_event')
      .select('id')
      .where('action', '=', 'audit.prune')
      .where((eb) =>
        eb.or([
          eb('outcome', '=', 'started'),
          eb('id', '>', through),
          ...(pending.length > 0 ? [eb('id', 'in', pending)] : []),
        ]),
      )
      .limit(1)
      .executeTakeFirst();
    if (!pruning)
      findings.add(
        'seal',
        null,
        first.id,
        first.after_id + 0.25,
        `seals ${recordedFirst} to ${first.id - 1} were removed (entries up to ${first.after_id}): no seal records them pruned`,
      );
  }
  const pendingSettlements = pending.length;
  const unsealed = await db
    .selectFrom('audit_event')
    .select((eb) => eb.fn.countAll().as('count'))
    .where('id', '>', previous?.through_id ?? 0)
    .executeTakeFirstOrThrow();
  const report: ChainReport = {
    ok: findings.count === 0,
    seals,
    entries,
    firstSeal: first?.id ?? null,
    verifiedFrom: from ? from.seal.through_id + 1 : first ? first.after_id + 1 : null,
    verifiedThrough: previous?.through_id ?? null,
    unsealed: Number(unsealed.count),
    pendingSettlements,
    problems: findings.count,
    firstProblem: findings.first(),
    keyId: verifier.keyId,
    anchorSeal: anchor?.id ?? null,
    sinceSeal: from?.seal.id ?? null,
    sealing: null,
  };
  const point: VerifiedPoint | null =
    report.ok && previous
      ? {
          seal: { id: previous.id, through_id: previous.through_id, head_hash: previous.head_hash },
          expectations: [...expectations],
        }
      : null;
  return { report, point };
}

/** The anchor must be signed and reached: a shorter chain, or none, is a log rolled back or cut. */
function checkAnchor(
  anchor: SealAnchor,
  verifier: SealVerifier,
  last: { id: number } | null,
  from: VerifiedPoint | null,
  reached: boolean,
  findings: Findings,
) {
  const at = anchor.through_id + 0.5;
  if (!signedBy(verifier, anchor))
    findings.add('seal', null, anchor.id, at, `the anchor (seal ${anchor.id}) is not signed by this key`);
  else if (!last || last.id < anchor.id)
    findings.add(
      'seal',
      null,
      anchor.id,
      at,
      `the database's seals end ${last ? `at seal ${last.id}` : 'before the first'}, short of the anchor (seal ${anchor.id}): seals were removed or the database rolled back`,
    );
  else if (!reached && !(from && from.seal.id >= anchor.id))
    findings.add('seal', null, anchor.id, at, `seal ${anchor.id} (the anchor) is missing from the database`);
}
