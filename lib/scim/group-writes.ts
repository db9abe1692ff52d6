import 'server-only';
import { randomUUID } from 'node:crypto';
import type { Transaction } from 'kysely';
import type { ScimConfig } from '@/lib/config/scim';
import type { ConsoleDialect, ConsoleTables } from '@/lib/db/console-database';
import { hasRole, type Role } from '@/lib/roles';
import { scimErrors } from './errors';
import type { ScimWriter } from './writer';

/**
 * The directory's changes to a group, each in one transaction: the group's row locked (PostgreSQL:
 * FOR UPDATE), the touched operators' rows locked in id order, the members added and removed row by
 * row (never the whole list read and written back), and each touched operator's role worked out again
 * from the database before the transaction ends. So two PATCHes at once from Okta or Entra ID, "remove
 * X" and "add Y", or X leaving one group while joining another, both hold: none is lost.
 */
type MemberChange = { op: 'add' | 'remove' | 'set'; ids: string[] };

export interface GroupChange {
  displayName?: string;
  externalId?: string | null;
  /** In order: `set` replaces every member, `add` and `remove` change only the ones they name. */
  members: MemberChange[];
}

type Trx = Transaction<ConsoleTables>;

/** Locks the operators' rows, in id order (no two writers wait on each other crosswise). */
async function lockOperators(trx: Trx, dialect: ConsoleDialect, ids: readonly string[]): Promise<void> {
  if (ids.length === 0 || dialect !== 'postgres') return; // SQLite: one writer at a time already
  await trx.selectFrom('user').select('id').where('id', 'in', ids).orderBy('id').forUpdate().execute();
}

/**
 * The role each operator's groups give now (SCIM_GROUP_ROLES; the highest wins, in none the
 * default), written in one statement per role. Only the operators the directory manages: an id a
 * PATCH names that is not theirs (a console-added admin) is never given a role.
 */
async function applyRoles(trx: Trx, scim: ScimConfig, ids: readonly string[]): Promise<void> {
  if (ids.length === 0) return;
  const managed = await trx
    .selectFrom('scim_user')
    .select('user_id')
    .where('user_id', 'in', [...new Set(ids)])
    .where('deleted_at', 'is', null)
    .execute();
  if (managed.length === 0) return;
  const roles = new Map<string, Role>(managed.map(({ user_id }) => [user_id, scim.defaultRole]));
  const memberships = await trx
    .selectFrom('scim_group_member')
    .innerJoin('scim_group', 'scim_group.id', 'scim_group_member.group_id')
    .select(['scim_group_member.user_id', 'scim_group.display_name_key'])
    .where('scim_group_member.user_id', 'in', [...roles.keys()])
    .execute();
  for (const { user_id, display_name_key } of memberships) {
    const given = scim.groupRoles.get(display_name_key);
    const current = roles.get(user_id);
    if (given && current && hasRole(given, current)) roles.set(user_id, given);
  }
  const byRole = new Map<Role, string[]>();
  for (const [id, role] of roles) byRole.set(role, [...(byRole.get(role) ?? []), id]);
  for (const [role, members] of byRole)
    await trx
      .updateTable('user')
      .set({ role })
      .where('id', 'in', members)
      .where((eb) => eb.or([eb('role', 'is', null), eb('role', '!=', role)]))
      .execute();
}

/** The operators' roles worked out again, in a transaction of their own, their rows locked. */
export async function applyGroupRoles({ db, dialect, scim }: ScimWriter, ids: readonly string[]) {
  const sorted = [...new Set(ids)].sort();
  await db.transaction().execute(async (trx) => {
    await lockOperators(trx, dialect, sorted);
    await applyRoles(trx, scim, sorted);
  });
}

/**
 * The operator out of every group, their role worked out again (the default), and `then` in the
 * same transaction, their row locked: a deleted operator's removal.
 */
export async function leaveEveryGroup(
  { db, dialect, scim }: ScimWriter,
  id: string,
  then: (trx: Trx) => Promise<void>,
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await lockOperators(trx, dialect, [id]);
    await trx.deleteFrom('scim_group_member').where('user_id', '=', id).execute();
    await applyRoles(trx, scim, [id]);
    await then(trx);
  });
}

/** The members the directory may add: operators it manages and has not deleted; others are refused. */
async function requireManagedMembers(trx: Trx, ids: readonly string[]): Promise<void> {
  const wanted = [...new Set(ids)];
  if (wanted.length === 0) return;
  const found = await trx
    .selectFrom('scim_user')
    .select('user_id')
    .where('user_id', 'in', wanted)
    .where('deleted_at', 'is', null)
    .execute();
  if (found.length !== wanted.length)
    throw scimErrors.invalidValue('A member is not a User this directory provisioned.');
}

async function refuseTakenName(trx: Trx, displayName: string, exceptId: string | null): Promise<void> {
  const taken = await trx
    .selectFrom('scim_group')
    .select('id')
    .where('display_name_key', '=', displayName.toLowerCase())
    .executeTakeFirst();
  if (taken && taken.id !== exceptId)
    throw scimErrors.uniqueness('A Group with this displayName exists already.');
}

/** The group's current members, its row locked against every other writer of it until the end. */
async function lockedMembers(trx: Trx, dialect: ConsoleDialect, id: string): Promise<string[]> {
  let row = trx.selectFrom('scim_group').select('id').where('id', '=', id);
  if (dialect === 'postgres') row = row.forUpdate();
  if (!(await row.executeTakeFirst())) throw scimErrors.notFound('Group');
  const members = await trx
    .selectFrom('scim_group_member')
    .select('user_id')
    .where('group_id', '=', id)
    .execute();
  return members.map((member) => member.user_id);
}

async function applyMembers(trx: Trx, groupId: string, changes: readonly MemberChange[]): Promise<void> {
  for (const { op, ids } of changes) {
    if (op === 'set') await trx.deleteFrom('scim_group_member').where('group_id', '=', groupId).execute();
    const unique = [...new Set(ids)];
    if (unique.length === 0) continue;
    if (op === 'remove')
      await trx
        .deleteFrom('scim_group_member')
        .where('group_id', '=', groupId)
        .where('user_id', 'in', unique)
        .execute();
    else
      await trx
        .insertInto('scim_group_member')
        .values(unique.map((user_id) => ({ group_id: groupId, user_id })))
        .onConflict((conflict) => conflict.columns(['group_id', 'user_id']).doNothing())
        .execute();
  }
}

/**
 * Creates (id null, with a display name) or changes a group, its members and their roles in one
 * transaction; answers its id.
 */
export async function changeScimGroup(
  { db, dialect, scim, clock }: ScimWriter,
  id: string | null,
  change: GroupChange,
): Promise<string> {
  return db.transaction().execute(async (trx) => {
    const groupId = id ?? randomUUID();
    const before = id === null ? [] : await lockedMembers(trx, dialect, id);
    if (change.displayName !== undefined) await refuseTakenName(trx, change.displayName, id);
    // A new name may give another role: then every member's is worked out again.
    const everyone = change.displayName !== undefined || change.members.some(({ op }) => op === 'set');
    const touched = new Set<string>(everyone ? before : []);
    for (const { ids } of change.members) for (const member of ids) touched.add(member);
    const sorted = [...touched].sort();
    await lockOperators(trx, dialect, sorted);
    await requireManagedMembers(
      trx,
      change.members.filter(({ op }) => op !== 'remove').flatMap(({ ids }) => ids),
    );
    const at = new Date(clock.now()).toISOString();
    if (id === null) {
      const displayName = change.displayName ?? '';
      await trx
        .insertInto('scim_group')
        .values({
          id: groupId,
          display_name: displayName,
          display_name_key: displayName.toLowerCase(),
          external_id: change.externalId ?? null,
          created_at: at,
          updated_at: at,
        })
        .execute();
    } else
      await trx
        .updateTable('scim_group')
        .set({
          updated_at: at,
          ...(change.displayName === undefined
            ? {}
            : { display_name: change.displayName, display_name_key: change.displayName.toLowerCase() }),
          ...(change.externalId === undefined ? {} : { external_id: change.externalId }),
        })
        .where('id', '=', groupId)
        .execute();
    await applyMembers(trx, groupId, change.members);
    await applyRoles(trx, scim, sorted);
    return groupId;
  });
}

/** Deletes a group; its former members' roles worked out again in the same transaction. */
export async function deleteScimGroup({ db, dialect, scim }: ScimWriter, id: string): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const members = (await lockedMembers(trx, dialect, id)).sort();
    await lockOperators(trx, dialect, members);
    await trx.deleteFrom('scim_group_member').where('group_id', '=', id).execute();
    await trx.deleteFrom('scim_group').where('id', '=', id).execute();
    await applyRoles(trx, scim, members);
  });
}
