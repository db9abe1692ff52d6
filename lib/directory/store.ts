/**
 * The directory of user groups: what this console has seen of each group, per environment, kept
 * up to date by every get-or-create, rotation and deletion it makes (searched in ./search.ts).
 * Framework-free: takes the console database's Kysely instance.
 *
 * Two kinds of column, kept apart: what the service's answers say (name, team, properties, the
 * token's fingerprint), which every answer overwrites, and what the console itself knows (who
 * created, changed or deleted a group and when, the mapping it sent). Each record below names the
 * columns it writes, never the whole row, so a field of the console's own about a group (a display
 * name, a note, an owner) is a column of its own that no answer undoes (store.test.ts proves it).
 */

import type { Insertable } from 'kysely';
import { tokenFingerprint } from '@/lib/audit/fingerprint';
import type { Clock } from '@/lib/clock';
import type { ConsoleDb } from '@/lib/db/console-database';
import type { Environment } from '@/lib/environments';
import { type DirectoryEntryTable, directoryDb } from './schema';

export interface DirectoryEntry {
  environment: Environment;
  userGroupId: string;
  name: string | null;
  teamId: number | null;
  properties: Record<string, unknown> | null;
  /** As this console last sent it; the service never returns a mapping. */
  mapping: Record<string, unknown> | null;
  tokenFingerprint: string | null;
  createdAt: string | null;
  createdBy: string | null;
  updatedAt: string;
  updatedBy: string | null;
  deletedAt: string | null;
  deletedBy: string | null;
}

/** A group as the service answered it. */
export interface ServiceGroup {
  provided_id: string;
  name: string;
  team_id: number;
  token: string;
  properties?: Record<string, unknown> | null;
}

interface Change {
  environment: Environment;
  operatorEmail: string;
  /** When it happened; unset: now, by the clock the writer is handed. */
  at?: Date;
}

/** A group as a bulk job kept it: its token sealed away, only the token's fingerprint at hand. */
type RecordedGroup = Omit<ServiceGroup, 'token'> & { tokenFingerprint: string | null };

const json = (value: unknown) => (value === undefined || value === null ? null : JSON.stringify(value));

/** After a get-or-create of a group. */
export interface GetOrCreateSeen extends Change {
  isNew: boolean;
  group: ServiceGroup | RecordedGroup;
  mappingSent: Record<string, unknown> | undefined;
}

/** After a rotation of a group: its new token. */
export interface RotationSeen extends Change {
  group: ServiceGroup | RecordedGroup;
}

/**
 * What the service answered about groups, in order: `get-or-create` or `rotate` each. A new group
 * starts its record afresh (even over a deleted one: the id was created anew); an existing one is
 * returned unchanged by the service, so the mapping this console sent was not applied and the
 * recorded one stays; a group that answers a rotation or a get-or-create exists, whatever the
 * directory last knew. A bulk job records hundreds at once: one statement per run of changes that
 * update the same columns, and never one group twice in a statement (PostgreSQL refuses that, and
 * the later change must win).
 */
export async function recordGroupsSeen(
  db: ConsoleDb,
  changes: ReadonlyArray<({ kind: 'get-or-create' } & GetOrCreateSeen) | ({ kind: 'rotate' } & RotationSeen)>,
  clock: Pick<Clock, 'now'>,
): Promise<void> {
  const ROWS_PER_STATEMENT = 200;
  let chunk: Insertable<DirectoryEntryTable>[] = [];
  // What the chunk's conflicts update besides what every answer tells: its properties, its creation.
  let shape = { withProperties: false, isNew: false };
  // "Last change" (updated_at, updated_by) moves with a change only: a new group or a new token. A
  // get-or-create that found the group unchanged (Show token's look, too) is a read: who changed it
  // last stays the answer to "who changed this last?".
  let changed = false;
  const keys = new Set<string>();
  const flush = async () => {
    if (chunk.length === 0) return;
    const { withProperties, isNew } = shape;
    await directoryDb(db)
      .insertInto('directory_entry')
      .values(chunk)
      .onConflict((conflict) =>
        conflict.columns(['environment', 'user_group_id']).doUpdateSet((eb) => ({
          name: eb.ref('excluded.name'),
          team_id: eb.ref('excluded.team_id'),
          token_fingerprint: eb.ref('excluded.token_fingerprint'),
          ...(changed
            ? { updated_at: eb.ref('excluded.updated_at'), updated_by: eb.ref('excluded.updated_by') }
            : {}),
          deleted_at: null,
          deleted_by: null,
          ...(withProperties ? { properties: eb.ref('excluded.properties') } : {}),
          ...(isNew
            ? {
                created_at: eb.ref('excluded.created_at'),
                created_by: eb.ref('excluded.created_by'),
                mapping: eb.ref('excluded.mapping'),
              }
            : {}),
        })),
      )
      .execute();
    chunk = [];
    keys.clear();
  };
  for (const change of changes) {
    const at = (change.at ?? new Date(clock.now())).toISOString();
    const isNew = change.kind === 'get-or-create' && change.isNew;
    const withProperties = change.kind === 'get-or-create' && change.group.properties !== undefined;
    const key = `${change.environment}\u0000${change.group.provided_id}`;
    const isChange = isNew || change.kind === 'rotate';
    const sameShape =
      shape.withProperties === withProperties && shape.isNew === isNew && changed === isChange;
    if (!sameShape || keys.has(key) || chunk.length === ROWS_PER_STATEMENT) await flush();
    shape = { withProperties, isNew };
    changed = isChange;
    keys.add(key);
    chunk.push({
      environment: change.environment,
      user_group_id: change.group.provided_id,
      name: change.group.name,
      team_id: change.group.team_id,
      token_fingerprint:
        'token' in change.group ? tokenFingerprint(change.group.token) : change.group.tokenFingerprint,
      properties: withProperties ? json(change.group.properties) : null,
      updated_at: at,
      updated_by: change.operatorEmail,
      created_at: isNew ? at : null,
      created_by: isNew ? change.operatorEmail : null,
      mapping: isNew && change.kind === 'get-or-create' ? json(change.mappingSent) : null,
      deleted_at: null,
      deleted_by: null,
    });
  }
  await flush();
}

/** After a get-or-create (see recordGroupsSeen). */
export function recordGetOrCreate(
  db: ConsoleDb,
  change: GetOrCreateSeen,
  clock: Pick<Clock, 'now'>,
): Promise<void> {
  return recordGroupsSeen(db, [{ kind: 'get-or-create', ...change }], clock);
}

/** After a rotation: the new token's fingerprint. */
export function recordRotation(
  db: ConsoleDb,
  change: RotationSeen,
  clock: Pick<Clock, 'now'>,
): Promise<void> {
  return recordGroupsSeen(db, [{ kind: 'rotate', ...change }], clock);
}

/** After a deletion: kept, marked deleted, so its history stays findable. */
export async function recordDeletion(
  db: ConsoleDb,
  change: Change & { userGroupId: string },
  clock: Pick<Clock, 'now'>,
): Promise<void> {
  const at = (change.at ?? new Date(clock.now())).toISOString();
  const deleted = {
    token_fingerprint: null,
    updated_at: at,
    updated_by: change.operatorEmail,
    deleted_at: at,
    deleted_by: change.operatorEmail,
  };
  await directoryDb(db)
    .insertInto('directory_entry')
    .values({ environment: change.environment, user_group_id: change.userGroupId, ...deleted })
    .onConflict((conflict) => conflict.columns(['environment', 'user_group_id']).doUpdateSet(deleted))
    .execute();
}

export async function findDirectoryEntry(
  db: ConsoleDb,
  environment: Environment,
  userGroupId: string,
): Promise<DirectoryEntry | null> {
  const row = await directoryDb(db)
    .selectFrom('directory_entry')
    .selectAll()
    .where('environment', '=', environment)
    .where('user_group_id', '=', userGroupId)
    .executeTakeFirst();
  return row ? toEntry(row) : null;
}

export function toEntry(row: DirectoryEntryTable): DirectoryEntry {
  const parse = (text: string | null) =>
    text === null ? null : (JSON.parse(text) as Record<string, unknown>);
  return {
    environment: row.environment as Environment,
    userGroupId: row.user_group_id,
    name: row.name,
    teamId: row.team_id,
    properties: parse(row.properties),
    mapping: parse(row.mapping),
    tokenFingerprint: row.token_fingerprint,
    createdAt: row.created_at,
    createdBy: row.created_by,
    updatedAt: row.updated_at,
    updatedBy: row.updated_by,
    deletedAt: row.deleted_at,
    deletedBy: row.deleted_by,
  };
}
