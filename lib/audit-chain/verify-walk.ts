/**
 * The verifier's walk: seals read in order, each batch's links recomputed from the rows (a seal's
 * content is never taken from its manifest but where a v1 seal's legacy link says it), what each
 * started entry must read now carried from seal to seal, and the findings kept in order.
 */
import type { AuditEvent } from '@/lib/audit/store';
import type { AuditSealTable, ConsoleDb } from '@/lib/db/console-database';
import type { ChainProblem } from './contract';
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
  yieldToOthers,
} from './links';
import { eventsById } from './settled-once';

const SEALS_PER_READ = 20;
/** Enough to name the first; the rest are counted. */
const PROBLEMS_KEPT = 1_000;

/** What an entry sealed while `started` must read now: its last sealed content. */
export interface Expectation {
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

export class Findings {
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

export type Seal = Omit<AuditSealTable, 'manifest'> & { manifest: Manifest; manifest_hash: string };

export async function* sealsInOrder(db: ConsoleDb, from = 0): AsyncGenerator<Seal> {
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
export function walkBatch(
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
export async function checkSettled(
  db: ConsoleDb,
  expectations: Map<number, Expectation>,
  findings: Findings,
) {
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
