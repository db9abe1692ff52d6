/**
 * Recomputes the audit chain from the database's rows, from the first kept seal (retention prunes
 * whole batches with their seals) to the last, and names the first entry that was changed, removed
 * or inserted, or the first seal that is missing, altered or not signed by the key. With an anchor
 * (anchor.ts: a seal kept outside the database), the database's seals must reach it: fewer seals,
 * or a different one under its id, fail. From a point verified before (`from`), only what was
 * sealed since is read: a press of the console's button costs what was sealed since the last one.
 * Reads only.
 */
import type { AuditEvent } from '@/lib/audit/store';
import type { AuditSealTable, ConsoleDb } from '@/lib/db/console-database';
import { type SealAnchor, signedBy, signedVersion } from './anchor';
import type { ChainProblem, ChainReport } from './contract';
import {
  chainHash,
  contentHash,
  fixedHash,
  isStartedLink,
  legacyFixedHash,
  type Manifest,
  manifestHash,
  parseManifest,
  startedValue,
  wellFormed,
  yieldToOthers,
} from './links';
import { eventsById } from './sealer';
import type { SealVerifier } from './signing-key';

const SEALS_PER_READ = 20;
/** Enough to name the first; the rest are counted. */
const PROBLEMS_KEPT = 1_000;

/** What an entry sealed while `started` must read now: its last sealed content. */
interface Expectation {
  content: string;
  fixed: string;
  /** Whether the group id was given at start (and so is fixed); null: a seal of the older kind. */
  groupGiven: boolean | null;
  stillStarted: boolean;
}

/** Where a verification ended, from which the next one carries on. */
export interface VerifiedPoint {
  seal: { id: number; through_id: number; head_hash: string };
  expectations: Array<[number, Expectation]>;
}

const fixedNow = (event: AuditEvent, expected: Expectation) =>
  expected.groupGiven === null ? legacyFixedHash(event) : fixedHash(event, expected.groupGiven);

class Findings {
  readonly problems: Array<ChainProblem & { at: number }> = [];
  count = 0;
  add(
    kind: ChainProblem['kind'],
    entryId: number | null,
    sealId: number | null,
    at: number,
    message: string,
  ) {
    this.count += 1;
    if (this.problems.length < PROBLEMS_KEPT) this.problems.push({ kind, entryId, sealId, message, at });
  }
  first(): ChainProblem | null {
    const [first] = [...this.problems].sort((a, b) => a.at - b.at);
    if (!first) return null;
    const { at: _at, ...problem } = first;
    return problem;
  }
}

type Seal = Omit<AuditSealTable, 'manifest'> & { manifest: Manifest; manifest_hash: string };

async function* sealsInOrder(db: ConsoleDb, from = 0): AsyncGenerator<Seal> {
  let after = from;
  for (;;) {
    const page = await db
      .selectFrom('audit_seal')
      .selectAll()
      .where('id', '>', after)
      .orderBy('id')
      .limit(SEALS_PER_READ)
      .execute();
    for (const seal of page)
      yield { ...seal, manifest: parseManifest(seal.manifest), manifest_hash: manifestHash(seal.manifest) };
    if (page.length < SEALS_PER_READ) return;
    after = Number(page.at(-1)?.id);
    await yieldToOthers();
  }
}

/** The links of one batch against its rows: entries by id, then settlements. Answers the head. */
function walkBatch(
  seal: Seal,
  rows: AuditEvent[],
  expectations: Map<number, Expectation>,
  findings: Findings,
  /** Every seal since the first is walked: a settlement of an entry no seal holds as started is forged. */
  complete: boolean,
  /** The seal's signed version: only a v1 seal's 4-element link carries its content (legacy). */
  version: 'v1' | 'v2' | null,
): string {
  const { entries, settlements } = seal.manifest;
  let head = seal.previous_hash;
  let link = 0;
  let row = 0;
  while (link < entries.length || row < rows.length) {
    const item = entries[link];
    const event = rows[row];
    const eventId = event ? Number(event.id) : Number.POSITIVE_INFINITY;
    if (event && (!item || eventId < item[0])) {
      findings.add(
        'inserted',
        eventId,
        seal.id,
        eventId,
        `entry ${eventId} was inserted into seal ${seal.id}`,
      );
      row += 1;
      continue;
    }
    if (!item) break;
    const [id, sealedHead] = item;
    if (!event || item[0] < eventId) {
      findings.add('removed', id, seal.id, id, `entry ${id} was removed`);
    } else {
      // A started entry's row is checked against its last sealed content at the end (checkSettled).
      // Content from the manifest only where its signed version says so; else always from the row.
      const legacy = item.length === 4 && version === 'v1';
      const expected = isStartedLink(item)
        ? chainHash(head, 'started', id, startedValue(item[2], item[3], item[4]))
        : chainHash(head, 'entry', id, legacy ? item[2] : contentHash(event));
      if (expected !== sealedHead) findings.add('changed', id, seal.id, id, `entry ${id} was changed`);
      if (isStartedLink(item) || legacy)
        expectations.set(id, {
          content: item[2] as string,
          fixed: item[3] as string,
          groupGiven: isStartedLink(item) ? item[4] === 1 : null,
          stillStarted: true,
        });
      row += 1;
    }
    // The seal's own hash carries on: one changed entry does not hide the next.
    head = sealedHead;
    link += 1;
  }
  for (const [id, sealedHead, content, stillStarted] of settlements) {
    if (chainHash(head, 'settlement', id, content) !== sealedHead)
      findings.add('changed', id, seal.id, id, `the settlement of entry ${id} was changed`);
    const expected = expectations.get(id);
    // An entry is settled once: a settlement after its final one was sealed over a rewritten row.
    if (expected && !expected.stillStarted)
      findings.add(
        'changed',
        id,
        seal.id,
        id,
        `entry ${id} was settled again in seal ${seal.id}, after its settlement was sealed`,
      );
    else if (!expected && complete)
      findings.add(
        'changed',
        id,
        seal.id,
        id,
        `seal ${seal.id} settles entry ${id}, which no seal holds as started`,
      );
    if (expected) Object.assign(expected, { content, stillStarted });
    head = sealedHead;
  }
  // A v2 seal's signed list of open entries is what the sealer carries on from: it must hold every
  // entry this chain has as still started, as last sealed (a link forged into a v1 seal is not).
  const open = version === 'v2' ? new Map(seal.manifest.open ?? []) : null;
  if (open) {
    for (const [id, expected] of expectations)
      if (expected.stillStarted && open.get(id) !== expected.content)
        findings.add(
          'changed',
          id,
          seal.id,
          id,
          `entry ${id} is not open as sealed in seal ${seal.id}'s signed list`,
        );
    if (complete)
      for (const id of open.keys())
        if (!expectations.get(id)?.stillStarted)
          findings.add(
            'changed',
            id,
            seal.id,
            id,
            `seal ${seal.id} lists entry ${id} as open, which no seal holds as started`,
          );
  }
  return head;
}

/** Entries sealed while `started` against their last sealed content; answers how many settled since. */
async function checkSettled(db: ConsoleDb, expectations: Map<number, Expectation>, findings: Findings) {
  const pending: number[] = [];
  const current = await eventsById(db, [...expectations.keys()]);
  for (const [id, expected] of expectations) {
    const event = current.get(id);
    // A missing row was named as removed already.
    if (!event) continue;
    // What a settlement never changes (time, operator, action, request, a group given at start)
    // must be as sealed, whatever was sealed since.
    const fixedKept = fixedNow(event, expected) === expected.fixed;
    if (fixedKept && contentHash(event) === expected.content) continue;
    // Settled after the last seal: its settlement is sealed on the next pass.
    if (fixedKept && expected.stillStarted && event.outcome !== 'started') pending.push(id);
    else findings.add('changed', id, null, id, `entry ${id} was changed`);
  }
  return pending;
}

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
