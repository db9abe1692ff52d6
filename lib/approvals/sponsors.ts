/**
 * Who brought each operator in or raised them: the admin who invited them, sent them a new link,
 * gave them a role or enabled them again (or whose approved request did). Two-person approval asks
 * for a second person, and an account its requester made (they may hold its link or password) is
 * not one: such an operator never approves that requester's requests, nor those of anyone the
 * requester's chain of sponsors reaches, and the other way round: whoever brought in whom, those
 * two never decide each other's requests. The table is this feature's (lib/approvals/schema.ts).
 */
import { randomUUID } from 'node:crypto';
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
