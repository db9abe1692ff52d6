import 'server-only';
import type { ScimConfig } from '@/lib/config/scim';
import type { ConsoleDb } from '@/lib/db/console-database';
import type { Role } from '@/lib/roles';

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

export interface GroupState {
  displayName: string;
  externalId: string | null;
  members: string[];
}
