/**
 * Recomputes the audit chain from the database's rows, from the first kept seal (retention prunes
 * whole batches with their seals) to the last, and names the first entry that was changed, removed
 * or inserted, or the first seal that is missing, altered or not signed by the key. Reads only.
 */
import type { AuditEvent } from '@/lib/audit/store';
import type { AuditSealTable, ConsoleDb } from '@/lib/db/console-database';
import type { ChainProblem, ChainReport } from './contract';
import { chainHash, contentHash, fixedHash, type Manifest, parseManifest, yieldToOthers } from './links';
import { eventsById } from './sealer';
import type { SealVerifier } from './signing-key';

const SEALS_PER_READ = 20;
/** Enough to name the first; the rest are counted. */
const PROBLEMS_KEPT = 1_000;

/** What an entry sealed while `started` must read now: its last sealed content. */
interface Expectation {
  content: string;
  fixed: string;
  stillStarted: boolean;
}

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

type Seal = Omit<AuditSealTable, 'manifest'> & { manifest: Manifest };

async function* sealsInOrder(db: ConsoleDb): AsyncGenerator<Seal> {
  let after = 0;
  for (;;) {
    const page = await db
      .selectFrom('audit_seal')
      .selectAll()
      .where('id', '>', after)
      .orderBy('id')
      .limit(SEALS_PER_READ)
      .execute();
    for (const seal of page) yield { ...seal, manifest: parseManifest(seal.manifest) };
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
      const startedContent = item.length === 4 ? item[2] : null;
      const content = startedContent ?? contentHash(event);
      if (chainHash(head, 'entry', id, content) !== sealedHead)
        findings.add('changed', id, seal.id, id, `entry ${id} was changed`);
      if (item.length === 4) expectations.set(id, { content: item[2], fixed: item[3], stillStarted: true });
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
    if (expected) Object.assign(expected, { content, stillStarted });
    head = sealedHead;
  }
  return head;
}

/** Entries sealed while `started` against their last sealed content; answers how many settled since. */
async function checkSettled(db: ConsoleDb, expectations: Map<number, Expectation>, findings: Findings) {
  let pending = 0;
  const current = await eventsById(db, [...expectations.keys()]);
  for (const [id, expected] of expectations) {
    const event = current.get(id);
    // A missing row was named as removed already.
    if (!event || contentHash(event) === expected.content) continue;
    // Settled after the last seal: its settlement is sealed on the next pass. What a settlement
    // never changes (time, operator, action, request) must still be as sealed.
    if (expected.stillStarted && event.outcome !== 'started' && fixedHash(event) === expected.fixed)
      pending += 1;
    else findings.add('changed', id, null, id, `entry ${id} was changed`);
  }
  return pending;
}

export async function verifyAuditChain(db: ConsoleDb, verifier: SealVerifier): Promise<ChainReport> {
  const findings = new Findings();
  const expectations = new Map<number, Expectation>();
  let previous: Seal | null = null;
  let first: Seal | null = null;
  let seals = 0;
  let entries = 0;
  for await (const seal of sealsInOrder(db)) {
    seals += 1;
    // A seal's own problem sorts after its entries': an entry named is the more useful answer.
    const at = seal.through_id + 0.5;
    if (!first) {
      first = seal;
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
    const signed = verifier.verify(
      { ...seal, settlements: seal.manifest.settlements.length },
      seal.signature,
    );
    if (!signed || seal.entry_count !== seal.manifest.entries.length)
      findings.add(
        'seal',
        null,
        seal.id,
        at,
        `seal ${seal.id} (entries ${seal.after_id + 1} to ${seal.through_id}) is not signed by this key as it reads now`,
      );
    const rows = await db
      .selectFrom('audit_event')
      .selectAll()
      .where('id', '>', seal.after_id)
      .where('id', '<=', seal.through_id)
      .orderBy('id')
      .execute();
    entries += rows.length;
    if (walkBatch(seal, rows, expectations, findings) !== seal.head_hash)
      findings.add('seal', null, seal.id, at, `seal ${seal.id}'s links do not lead to its head`);
    previous = seal;
  }
  const pendingSettlements = await checkSettled(db, expectations, findings);
  const unsealed = await db
    .selectFrom('audit_event')
    .select((eb) => eb.fn.countAll().as('count'))
    .where('id', '>', previous?.through_id ?? 0)
    .executeTakeFirstOrThrow();
  return {
    ok: findings.count === 0,
    seals,
    entries,
    firstSeal: first?.id ?? null,
    verifiedFrom: first ? first.after_id + 1 : null,
    verifiedThrough: previous?.through_id ?? null,
    unsealed: Number(unsealed.count),
    pendingSettlements,
    problems: findings.count,
    firstProblem: findings.first(),
    keyId: verifier.keyId,
  };
}
