/**
 * Whether each row of a draft rotation holds its group's current token, as this console last saw
 * it, in the words of the identify page (lib/tokens/identify.ts): Current; Replaced (a rotation
 * ended it, or the console has seen the group with another token since); Deleted (its group was
 * deleted); Unknown (the console never saw it). Only a Current row is ready to run: a replaced or
 * deleted token no longer works, a deleted or unknown id would be created anew by the rotation, and
 * an unknown token is sent only when the person asks for it (it may be a group made outside the
 * console). Looked up by fingerprint, in chunks, like the draft's other look-ups.
 */

import type { ConsoleDb } from '@/lib/db/console-database';
import { directoryDb } from '@/lib/directory/schema';
import type { Environment } from '@/lib/environments';
import { SEND_UNKNOWN_LABEL } from './contract';

export type RowStanding = 'current' | 'replaced' | 'deleted' | 'unknown';

export interface RowLookUp {
  /** The group the token is (or was) of, as this console knows it; null when unknown. */
  userGroupId: string | null;
  standing: RowStanding;
}

const CHUNK = 500;

function chunks<T>(values: readonly T[]): T[][] {
  const result: T[][] = [];
  for (let start = 0; start < values.length; start += CHUNK) result.push(values.slice(start, start + CHUNK));
  return result;
}

/** Each pasted token's group and standing, by the token's fingerprint. */
export async function pastedTokenStandings(
  db: ConsoleDb,
  environment: Environment,
  fingerprints: readonly string[],
): Promise<Map<string, RowLookUp>> {
  const found = new Map<string, RowLookUp>();
  for (const chunk of chunks(fingerprints)) {
    // The directory holds each live group's current token (a deleted group's is cleared).
    const current = await directoryDb(db)
      .selectFrom('directory_entry')
      .select(['token_fingerprint', 'user_group_id'])
      .where('environment', '=', environment)
      .where('deleted_at', 'is', null)
      .where('token_fingerprint', 'in', chunk)
      .execute();
    for (const row of current)
      if (row.token_fingerprint)
        found.set(row.token_fingerprint, { userGroupId: row.user_group_id, standing: 'current' });
    const rest = chunk.filter((fingerprint) => !found.has(fingerprint));
    if (rest.length === 0) continue;
    // The others: what the audit log says ended them, or that they were issued once (and the
    // group has had another token since).
    const events = await db
      .selectFrom('audit_event')
      .select(['action', 'user_group_id', 'token_fingerprint', 'previous_token_fingerprint'])
      .where('outcome', '=', 'success')
      .where('environment', '=', environment)
      .where('action', 'in', ['get-or-create', 'rotate', 'delete'])
      .where((eb) =>
        eb.or([eb('previous_token_fingerprint', 'in', rest), eb('token_fingerprint', 'in', rest)]),
      )
      .orderBy('id')
      .execute();
    const ended = new Map<string, RowLookUp>();
    const issued = new Map<string, RowLookUp>();
    for (const event of events) {
      const previous = event.previous_token_fingerprint;
      // The first ending is the one that counts, as on the identify page.
      if (previous && rest.includes(previous) && !ended.has(previous))
        ended.set(previous, {
          userGroupId: event.user_group_id,
          standing: event.action === 'delete' ? 'deleted' : 'replaced',
        });
      const token = event.token_fingerprint;
      if (token && rest.includes(token) && !issued.has(token))
        issued.set(token, { userGroupId: event.user_group_id, standing: 'replaced' });
    }
    for (const fingerprint of rest) {
      const known = ended.get(fingerprint) ?? issued.get(fingerprint);
      if (known) found.set(fingerprint, known);
    }
  }
  for (const fingerprint of fingerprints)
    if (!found.has(fingerprint)) found.set(fingerprint, { userGroupId: null, standing: 'unknown' });
  return found;
}

/** Each group chosen by id: Current while the directory has it, Deleted once deleted, else Unknown. */
export async function chosenGroupStandings(
  db: ConsoleDb,
  environment: Environment,
  ids: readonly string[],
): Promise<Map<string, RowStanding>> {
  const found = new Map<string, RowStanding>();
  for (const chunk of chunks(ids)) {
    const entries = await directoryDb(db)
      .selectFrom('directory_entry')
      .select(['user_group_id', 'deleted_at'])
      .where('environment', '=', environment)
      .where('user_group_id', 'in', chunk)
      .execute();
    for (const entry of entries)
      found.set(entry.user_group_id, entry.deleted_at === null ? 'current' : 'deleted');
  }
  for (const id of ids) if (!found.has(id)) found.set(id, 'unknown');
  return found;
}

/** What keeps a row out of the run, beginning with its standing's word (the badge beside it). */
export function standingProblem(standing: Exclude<RowStanding, 'current'>, chosenBy: 'token' | 'id'): string {
  if (chosenBy === 'id')
    return standing === 'deleted'
      ? 'Deleted: this group was deleted; rotating it would create it anew.'
      : 'Unknown: the console knows no group with this id; rotating it would create one.';
  switch (standing) {
    case 'replaced':
      return 'Replaced: no longer its group’s current token (a rotation ended it); it already does not work.';
    case 'deleted':
      return 'Deleted: its group was deleted; the token already does not work.';
    case 'unknown':
      return `Unknown: the console has never seen this token. To send it anyway, check the tokens again with “${SEND_UNKNOWN_LABEL}”.`;
  }
}
