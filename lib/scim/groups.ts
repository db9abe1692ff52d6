import 'server-only';
import { randomUUID } from 'node:crypto';
import type { ScimConfig } from '@/lib/config/scim';
import type { ConsoleDb } from '@/lib/db/console-database';
import { hasRole, type Role } from '@/lib/roles';
import { scimErrors } from './errors';

/**
 * The directory's groups and their members. A group gives a role by its display name
 * (SCIM_GROUP_ROLES, without case); an operator in several gets the highest, in none the default
 * (SCIM_DEFAULT_ROLE). Groups the mapping does not name are kept (the directory expects to read
 * them back) and give nothing.
 */
export interface ScimGroup {
  id: string;
  displayName: string;
  externalId: string | null;
  createdAt: string;
  updatedAt: string;
  members: { value: string; display: string }[];
}

export async function roleOfMember(db: ConsoleDb, scim: ScimConfig, userId: string): Promise<Role> {
  const groups = await db
    .selectFrom('scim_group_member')
    .innerJoin('scim_group', 'scim_group.id', 'scim_group_member.group_id')
    .select('scim_group.display_name_key')
    .where('scim_group_member.user_id', '=', userId)
    .execute();
  let role = scim.defaultRole;
  for (const { display_name_key } of groups) {
    const given = scim.groupRoles.get(display_name_key);
    if (given && hasRole(given, role)) role = given;
  }
  return role;
}

/** The role a group gives, if the mapping names it. */
export const roleOfGroup = (scim: ScimConfig, displayName: string): Role | null =>
  scim.groupRoles.get(displayName.toLowerCase()) ?? null;

export async function findScimGroup(db: ConsoleDb, id: string): Promise<ScimGroup | null> {
  return (await groupsWhere(db, { id }))[0] ?? null;
}

export async function listScimGroups(
  db: ConsoleDb,
  displayName: string | null,
  startIndex: number,
  count: number,
): Promise<{ total: number; groups: ScimGroup[] }> {
  const all = await groupsWhere(db, displayName === null ? {} : { displayName });
  return { total: all.length, groups: all.slice(startIndex - 1, startIndex - 1 + count) };
}

async function groupsWhere(
  db: ConsoleDb,
  where: { id?: string; displayName?: string },
): Promise<ScimGroup[]> {
  let query = db.selectFrom('scim_group').selectAll().orderBy('created_at').orderBy('id');
  if (where.id !== undefined) query = query.where('id', '=', where.id);
  if (where.displayName !== undefined)
    query = query.where('display_name_key', '=', where.displayName.toLowerCase());
  const rows = await query.execute();
  const ids = rows.map((row) => row.id);
  const members =
    ids.length === 0
      ? []
      : await db
          .selectFrom('scim_group_member')
          .innerJoin('scim_user', 'scim_user.user_id', 'scim_group_member.user_id')
          .select(['scim_group_member.group_id', 'scim_user.user_id', 'scim_user.user_name'])
          .where('scim_group_member.group_id', 'in', ids)
          .where('scim_user.deleted_at', 'is', null)
          .execute();
  return rows.map((row) => ({
    id: row.id,
    displayName: row.display_name,
    externalId: row.external_id,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    members: members
      .filter((member) => member.group_id === row.id)
      .map((member) => ({ value: member.user_id, display: member.user_name })),
  }));
}

/** The members the directory may name: operators it manages and has not deleted; others are refused. */
async function requireManagedMembers(db: ConsoleDb, ids: readonly string[]): Promise<void> {
  if (ids.length === 0) return;
  const found = await db
    .selectFrom('scim_user')
    .select('user_id')
    .where('user_id', 'in', [...new Set(ids)])
    .where('deleted_at', 'is', null)
    .execute();
  if (found.length !== new Set(ids).size)
    throw scimErrors.invalidValue('A member is not a User this directory provisioned.');
}

async function refuseTakenName(db: ConsoleDb, displayName: string, exceptId: string | null): Promise<void> {
  const taken = await db
    .selectFrom('scim_group')
    .select('id')
    .where('display_name_key', '=', displayName.toLowerCase())
    .executeTakeFirst();
  if (taken && taken.id !== exceptId)
    throw scimErrors.uniqueness('A Group with this displayName exists already.');
}

export interface GroupState {
  displayName: string;
  externalId: string | null;
  members: string[];
}

/** Creates or rewrites a group; answers its id and the members whose role may have changed. */
export async function writeScimGroup(
  db: ConsoleDb,
  id: string | null,
  state: GroupState,
): Promise<{ id: string; touched: string[] }> {
  await refuseTakenName(db, state.displayName, id);
  await requireManagedMembers(db, state.members);
  const at = new Date().toISOString();
  const groupId = id ?? randomUUID();
  const before =
    id === null ? [] : ((await findScimGroup(db, id))?.members.map((member) => member.value) ?? []);
  await db.transaction().execute(async (trx) => {
    const fields = {
      display_name: state.displayName,
      display_name_key: state.displayName.toLowerCase(),
      external_id: state.externalId,
      updated_at: at,
    };
    if (id === null)
      await trx
        .insertInto('scim_group')
        .values({ id: groupId, created_at: at, ...fields })
        .execute();
    else await trx.updateTable('scim_group').set(fields).where('id', '=', id).execute();
    await trx.deleteFrom('scim_group_member').where('group_id', '=', groupId).execute();
    const members = [...new Set(state.members)];
    if (members.length > 0)
      await trx
        .insertInto('scim_group_member')
        .values(members.map((user_id) => ({ group_id: groupId, user_id })))
        .execute();
  });
  return { id: groupId, touched: [...new Set([...before, ...state.members])] };
}

/** Deletes a group; answers its former members, whose role may change. */
export async function deleteScimGroup(db: ConsoleDb, id: string): Promise<string[]> {
  const group = await findScimGroup(db, id);
  if (!group) throw scimErrors.notFound('Group');
  await db.transaction().execute(async (trx) => {
    await trx.deleteFrom('scim_group_member').where('group_id', '=', id).execute();
    await trx.deleteFrom('scim_group').where('id', '=', id).execute();
  });
  return group.members.map((member) => member.value);
}
