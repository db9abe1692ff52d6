/**
 * "A customer sent me this token: whose is it, and is it still good?" answered from what this
 * console has seen, by the token's fingerprint only (the token itself is never stored or sent on):
 * the directory says which group's token it is now, the audit log when it was issued and when a
 * rotation or a deletion ended it. Nothing is asked of the service: the answer is "as this console
 * last saw it", which the page says.
 */

import { tokenFingerprint } from '@/lib/audit/fingerprint';
import type { ConsoleDb } from '@/lib/db/console-database';
import { directoryDb } from '@/lib/directory/schema';
import { type Environment, environments } from '@/lib/environments';

/**
 * current: the group's token as this console last saw it; replaced: a rotation ended it; deleted:
 * its group was deleted; superseded: the console saw the group with another token since, without
 * seeing how this one ended (a rotation made elsewhere).
 */
type TokenStanding = 'current' | 'replaced' | 'deleted' | 'superseded';

interface TokenEvent {
  at: string;
  by: string | null;
  /** The audit action: get-or-create, rotate, delete. */
  action: string;
  /** The bulk job it was part of, when it was. */
  jobId: string | null;
}

interface TokenMatch {
  environment: Environment;
  userGroupId: string;
  name: string | null;
  standing: TokenStanding;
  /** When this console first saw the token issued (or returned) for the group. */
  issued: TokenEvent | null;
  /** What ended it: the rotation or deletion this console made. */
  ended: TokenEvent | null;
  /** The group's directory record says it is deleted (in this environment). */
  groupDeleted: boolean;
}

export interface TokenIdentity {
  fingerprint: string;
  matches: TokenMatch[];
  /** Groups whose id is the pasted text itself: it may have been an id, not a token. */
  groupsWithThatId: { environment: Environment; userGroupId: string; name: string | null }[];
}

const MAX_EVENTS = 500;

export async function identifyToken(db: ConsoleDb, token: string): Promise<TokenIdentity> {
  const fingerprint = tokenFingerprint(token) ?? '';
  const [entries, events, sameId] = await Promise.all([
    directoryDb(db)
      .selectFrom('directory_entry')
      .selectAll()
      .where('token_fingerprint', '=', fingerprint)
      .execute(),
    db
      .selectFrom('audit_event')
      .select([
        'at',
        'operator_email',
        'action',
        'environment',
        'user_group_id',
        'user_group_name',
        'request_id',
        'token_fingerprint',
        'previous_token_fingerprint',
      ])
      .where('outcome', '=', 'success')
      .where((eb) =>
        eb.or([
          eb('token_fingerprint', '=', fingerprint),
          eb('previous_token_fingerprint', '=', fingerprint),
        ]),
      )
      .orderBy('id')
      .limit(MAX_EVENTS)
      .execute(),
    directoryDb(db)
      .selectFrom('directory_entry')
      .select(['environment', 'user_group_id', 'name'])
      // Every environment named, so the primary key (environment, id) answers, not a scan.
      .where('environment', 'in', [...environments])
      .where('user_group_id', '=', token)
      .execute(),
  ]);
  const jobIds = new Set(
    events.length === 0
      ? []
      : // The jobs' table, seen by its id only (lib/jobs depends on the directory, not back).
        (
          await db
            .withTables<{ bulk_job: { id: string } }>()
            .selectFrom('bulk_job')
            .select('id')
            .where(
              'id',
              'in',
              events.map((event) => event.request_id),
            )
            .execute()
        ).map((job) => job.id),
  );
  const toEvent = (event: (typeof events)[number]): TokenEvent => ({
    at: event.at,
    by: event.operator_email,
    action: event.action,
    jobId: jobIds.has(event.request_id) ? event.request_id : null,
  });

  const matches = new Map<string, TokenMatch>();
  const matchOf = (environment: Environment, userGroupId: string, name: string | null) => {
    const key = `${environment}\u0000${userGroupId}`;
    let match = matches.get(key);
    if (!match) {
      match = {
        environment,
        userGroupId,
        name,
        standing: 'superseded',
        issued: null,
        ended: null,
        groupDeleted: false,
      };
      matches.set(key, match);
    }
    if (name) match.name = name;
    return match;
  };
  for (const event of events) {
    if (!event.environment || !event.user_group_id) continue;
    const match = matchOf(event.environment as Environment, event.user_group_id, event.user_group_name);
    if (event.token_fingerprint === fingerprint) match.issued ??= toEvent(event);
    if (event.previous_token_fingerprint === fingerprint && !match.ended) {
      match.ended = toEvent(event);
      match.standing = event.action === 'delete' ? 'deleted' : 'replaced';
    }
  }
  const recorded = new Set<TokenMatch>();
  for (const entry of entries) {
    const match = matchOf(entry.environment as Environment, entry.user_group_id, entry.name);
    recorded.add(match);
    match.groupDeleted = entry.deleted_at !== null;
    if (match.ended) continue;
    match.standing = entry.deleted_at === null ? 'current' : 'deleted';
    if (entry.deleted_at !== null)
      match.ended = { at: entry.deleted_at, by: entry.deleted_by, action: 'delete', jobId: null };
  }
  // The other groups' records no longer hold this token: whether each still exists, as last known.
  await Promise.all(
    [...matches.values()]
      .filter((match) => !recorded.has(match))
      .map(async (match) => {
        const record = await directoryDb(db)
          .selectFrom('directory_entry')
          .select(['deleted_at'])
          .where('environment', '=', match.environment)
          .where('user_group_id', '=', match.userGroupId)
          .executeTakeFirst();
        match.groupDeleted = Boolean(record?.deleted_at);
      }),
  );
  const order: Record<TokenStanding, number> = { current: 0, replaced: 1, superseded: 2, deleted: 3 };
  return {
    fingerprint,
    matches: [...matches.values()].sort(
      (a, b) =>
        order[a.standing] - order[b.standing] ||
        (b.ended?.at ?? b.issued?.at ?? '').localeCompare(a.ended?.at ?? a.issued?.at ?? ''),
    ),
    groupsWithThatId: sameId.map((entry) => ({
      environment: entry.environment as Environment,
      userGroupId: entry.user_group_id,
      name: entry.name,
    })),
  };
}
