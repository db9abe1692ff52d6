/**
 * Who brought each operator in or raised them: the admin who invited them, sent them a new link,
 * gave them a role or enabled them again (or whose approved request did). Two-person approval asks
 * for a second person, and an account its requester made (they may hold its link or password) is
 * not one: such an operator never approves that requester's requests, nor those of anyone the
 * requester's chain of sponsors reaches, and the other way round: whoever brought in whom, those
 * two never decide each other's requests. The table is this feature's (lib/approvals/schema.ts).
 */
import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import { ConsoleError } from '@/lib/console-error';
import type { ConsoleDb } from '@/lib/db/console-database';

/** How the sponsor brought them in or raised them. */
export type SponsorWay = 'invited' | 'new link' | 'role' | 'enabled';

interface OperatorSponsorTable {
  id: string;
  user_id: string;
  sponsor_id: string;
  how: string;
  at: string;
}

const withSponsors = (db: ConsoleDb) => db.withTables<{ operator_sponsor: OperatorSponsorTable }>();

/** Puts on the record that `sponsorId` brought `userId` in or raised them: before the change happens. */
export async function recordSponsor(
  db: ConsoleDb,
  sponsorship: { userId: string; sponsorId: string; how: SponsorWay },
  now: Date,
): Promise<void> {
  // An admin acting on their own account brings nobody in.
  if (sponsorship.userId === sponsorship.sponsorId) return;
  await withSponsors(db)
    .insertInto('operator_sponsor')
    .values({
      id: randomUUID(),
      user_id: sponsorship.userId,
      sponsor_id: sponsorship.sponsorId,
      how: sponsorship.how,
      at: now.toISOString(),
    })
    .execute();
}

/** Up `fromId`'s sponsors, breadth first, to `toId`: the way `fromId` was brought in, the closest first. */
function wayUp(
  sponsorsOf: ReadonlyMap<string, { sponsor: string; how: SponsorWay }[]>,
  fromId: string,
  toId: string,
): SponsorWay | null {
  const seen = new Set([fromId]);
  let frontier = [{ id: fromId, how: null as SponsorWay | null }];
  while (frontier.length > 0) {
    const next: typeof frontier = [];
    for (const { id, how } of frontier)
      for (const edge of sponsorsOf.get(id) ?? []) {
        const way = how ?? edge.how;
        if (edge.sponsor === toId) return way;
        if (!seen.has(edge.sponsor)) {
          seen.add(edge.sponsor);
          next.push({ id: edge.sponsor, how: way });
        }
      }
    frontier = next;
  }
  return null;
}

/** What the approver did to the requester (or to someone who brought the requester in). */
const approverDid = {
  invited: 'invited',
  'new link': 'sent an invitation link to',
  role: 'gave their role to',
  enabled: 'enabled the account of',
} as const;

/**
 * Whether `requesterId` brought `approverId` in or raised them, directly or through operators they
 * brought in (a puppet's puppet is the requester's too). Answers how, for the refusal's words.
 *
 * The relation is symmetric: where the approver brought the requester in (directly or through a
 * chain), the requester's account may be the approver's own, so this refuses too, with a forbidden
 * ConsoleError of its own words (the caller's words are the other way round), which the decision
 * puts on record as any refusal.
 */
export async function broughtInBy(
  db: ConsoleDb,
  approverId: string,
  requesterId: string,
): Promise<SponsorWay | null> {
  const rows = await withSponsors(db)
    .selectFrom('operator_sponsor')
    .select(['user_id', 'sponsor_id', 'how'])
    .execute();
  const sponsorsOf = new Map<string, { sponsor: string; how: SponsorWay }[]>();
  for (const row of rows)
    sponsorsOf.set(row.user_id, [
      ...(sponsorsOf.get(row.user_id) ?? []),
      { sponsor: row.sponsor_id, how: row.how as SponsorWay },
    ]);
  const way = wayUp(sponsorsOf, approverId, requesterId);
  if (way) return way;
  const theirs = wayUp(sponsorsOf, requesterId, approverId);
  if (!theirs) return null;
  const requester = await db
    .selectFrom('user')
    .select('email')
    .where('id', '=', requesterId)
    .executeTakeFirst();
  const who = requester?.email ?? 'whoever asked';
  throw new ConsoleError(
    'forbidden',
    `You ${approverDid[theirs]} ${who} (or someone who brought them in): an approval from you would not be a second person's, as their account may be yours. Another operator must approve or reject it.`,
  );
}

/** The tables the backfill reads, as they were when it was written. */
interface BackfillTables {
  operator_sponsor: OperatorSponsorTable;
  operator_invitation: { user_id: string; created_by: string | null; created_at: string };
  audit_event: {
    at: string;
    operator_id: string | null;
    action: string;
    outcome: string;
    detail: string | null;
  };
  user: { id: string; email: string };
}

const rank = (role: string) => ['no role', 'viewer', 'support', 'admin'].indexOf(role);

/**
 * Whom a successful audit entry says its operator brought in or raised, by email, and how: the
 * entries' details as the operators routes write them (`ann@… as admin`, `ann@…: viewer → admin`,
 * `ann@…` enabled, `ann@…: new operator` / `: sent again…` links), an approval's note after `; `.
 */
function sponsoredBy(action: string, detail: string): { email: string; how: SponsorWay } | null {
  const head = detail.split('; ')[0] ?? '';
  if (action === 'operator.create') {
    const made = /^(\S+@\S+) as \w+$/.exec(head);
    return made?.[1] ? { email: made[1], how: 'invited' } : null;
  }
  if (action === 'operator.set-role') {
    const set = /^(\S+@\S+): (.+) → (\w+)$/.exec(head);
    // Lowering someone gives them nothing to approve with.
    return set?.[1] && set[2] && set[3] && rank(set[3]) > rank(set[2])
      ? { email: set[1], how: 'role' }
      : null;
  }
  if (action === 'operator.enable') return /^\S+@\S+$/.test(head) ? { email: head, how: 'enabled' } : null;
  if (action === 'invitation.create' || action === 'invitation.void') {
    const link = /^(\S+@\S+): (new operator|sent again)/.exec(head);
    return link?.[1] ? { email: link[1], how: link[2] === 'new operator' ? 'invited' : 'new link' } : null;
  }
  return null;
}

/**
 * Who brought in the operators already there when the sponsor table came: every invitation link
 * names its maker, and the audit log's successful operator.create, invitation, set-role (raised)
 * and enable entries name who did it to whom (by email, looked up now). Best effort: the audit log
 * keeps what its retention kept; a row too many only refuses an approval, never allows one.
 */
export async function backfillSponsors(database: Kysely<unknown>): Promise<void> {
  const db = database as unknown as Kysely<BackfillTables>;
  const users = await db.selectFrom('user').select(['id', 'email']).execute();
  const idOf = new Map(users.map((user) => [user.email.toLowerCase(), user.id]));
  const found: Omit<OperatorSponsorTable, 'id'>[] = [];
  for (const link of await db
    .selectFrom('operator_invitation')
    .select(['user_id', 'created_by', 'created_at'])
    .execute())
    if (link.created_by)
      found.push({ user_id: link.user_id, sponsor_id: link.created_by, how: 'invited', at: link.created_at });
  const entries = await db
    .selectFrom('audit_event')
    .select(['at', 'operator_id', 'action', 'detail'])
    .where('outcome', '=', 'success')
    .where('action', 'in', [
      'operator.create',
      'operator.set-role',
      'operator.enable',
      'invitation.create',
      'invitation.void',
    ])
    .execute();
  for (const entry of entries) {
    const sponsored = entry.operator_id && entry.detail ? sponsoredBy(entry.action, entry.detail) : null;
    const userId = sponsored ? idOf.get(sponsored.email.toLowerCase()) : undefined;
    if (sponsored && userId && entry.operator_id)
      found.push({ user_id: userId, sponsor_id: entry.operator_id, how: sponsored.how, at: entry.at });
  }
  const seen = new Set<string>();
  const rows = found.filter((row) => {
    const key = `${row.user_id} ${row.sponsor_id} ${row.how}`;
    if (row.user_id === row.sponsor_id || seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  for (let start = 0; start < rows.length; start += 200)
    await db
      .insertInto('operator_sponsor')
      .values(rows.slice(start, start + 200).map((row) => ({ id: randomUUID(), ...row })))
      .execute();
}
