import 'server-only';
import { isAPIError } from 'better-auth/api';
import type { ConsoleDb } from '@/lib/db/console-database';
import { voidOpenInvitations } from '@/lib/invitations/store';
import { parseRole, type Role } from '@/lib/roles';
import type { ScimUserInput } from './contract';
import { scimErrors } from './errors';
import { leaveEveryGroup } from './group-writes';
import type { ScimWriter } from './writer';

export type { ScimWriter } from './writer';

/** A directory-managed operator as SCIM sees them: their better-auth row and their scim_user row. */
export interface ScimOperator {
  id: string;
  userName: string;
  externalId: string | null;
  email: string;
  name: string;
  givenName: string | null;
  familyName: string | null;
  active: boolean;
  role: Role | null;
  createdAt: string;
  updatedAt: string;
  groups: { value: string; display: string }[];
}

/** What the console keeps of a User resource: the operator's email, name and whether they may sign in. */
export interface ScimUserState {
  userName: string;
  externalId: string | null;
  email: string;
  name: string;
  givenName: string | null;
  familyName: string | null;
  active: boolean;
}

const iso = (value: string | number | Date) => new Date(value).toISOString();

function operatorsQuery(db: ConsoleDb) {
  return db
    .selectFrom('scim_user')
    .innerJoin('user', 'user.id', 'scim_user.user_id')
    .select([
      'user.id',
      'user.email',
      'user.name',
      'user.role',
      'user.banned',
      'scim_user.user_name',
      'scim_user.external_id',
      'scim_user.given_name',
      'scim_user.family_name',
      'scim_user.created_at',
      'scim_user.updated_at',
    ])
    .where('scim_user.deleted_at', 'is', null);
}

type OperatorRow = Awaited<ReturnType<ReturnType<typeof operatorsQuery>['executeTakeFirstOrThrow']>>;

async function withGroups(db: ConsoleDb, rows: OperatorRow[]): Promise<ScimOperator[]> {
  const ids = rows.map((row) => row.id);
  const memberships =
    ids.length === 0
      ? []
      : await db
          .selectFrom('scim_group_member')
          .innerJoin('scim_group', 'scim_group.id', 'scim_group_member.group_id')
          .select(['scim_group_member.user_id', 'scim_group.id', 'scim_group.display_name'])
          .where('scim_group_member.user_id', 'in', ids)
          .execute();
  return rows.map((row) => ({
    id: row.id,
    userName: row.user_name,
    externalId: row.external_id,
    email: row.email,
    name: row.name,
    givenName: row.given_name,
    familyName: row.family_name,
    active: !row.banned,
    role: parseRole(row.role),
    createdAt: iso(row.created_at),
    updatedAt: iso(row.updated_at),
    groups: memberships
      .filter((membership) => membership.user_id === row.id)
      .map((membership) => ({ value: membership.id, display: membership.display_name })),
  }));
}

export async function findScimOperator(db: ConsoleDb, id: string): Promise<ScimOperator | null> {
  const row = await operatorsQuery(db).where('user.id', '=', id).executeTakeFirst();
  return row ? ((await withGroups(db, [row]))[0] ?? null) : null;
}

export type UserFilter = { attribute: 'userName' | 'externalId'; value: string } | null;

/** A page of the directory-managed operators (SCIM's startIndex is 1-based), with their total. */
export async function listScimOperators(
  db: ConsoleDb,
  filter: UserFilter,
  startIndex: number,
  count: number,
): Promise<{ total: number; operators: ScimOperator[] }> {
  let query = operatorsQuery(db);
  if (filter?.attribute === 'userName')
    query = query.where('scim_user.user_name_key', '=', filter.value.toLowerCase());
  if (filter?.attribute === 'externalId') query = query.where('scim_user.external_id', '=', filter.value);
  const [rows, total] = await Promise.all([
    count === 0
      ? []
      : query
          .orderBy('scim_user.created_at')
          .orderBy('user.id')
          .offset(startIndex - 1)
          .limit(count)
          .execute(),
    query
      .clearSelect()
      .select((eb) => eb.fn.countAll<number | string>().as('count'))
      .executeTakeFirstOrThrow(),
  ]);
  return { total: Number(total.count), operators: await withGroups(db, rows) };
}

/** The console's state of a User resource: its email is the primary email, else the userName. */
export function userState(input: ScimUserInput, current?: ScimUserState): ScimUserState {
  const emails = input.emails ?? [];
  const email = (emails.find((entry) => entry.primary === true) ?? emails[0])?.value ?? input.userName;
  if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email))
    throw scimErrors.invalidValue('The operator needs an email address: as userName or in emails.');
  const given = [input.name?.givenName, input.name?.familyName].filter(Boolean).join(' ');
  const name = input.displayName || input.name?.formatted || given || current?.name || input.userName;
  return {
    userName: input.userName,
    externalId: input.externalId ?? null,
    email: email.toLowerCase(),
    name,
    givenName: input.name?.givenName || null,
    familyName: input.name?.familyName || null,
    active: input.active ?? current?.active ?? true,
  };
}

/** Another operator (SCIM-managed or not) holds the email or the userName already: 409. */
async function refuseTaken(db: ConsoleDb, state: ScimUserState, exceptId: string | null): Promise<void> {
  const byEmail = await db
    .selectFrom('user')
    .select('id')
    .where('email', '=', state.email)
    .executeTakeFirst();
  const byName = await db
    .selectFrom('scim_user')
    .select('user_id')
    .where('user_name_key', '=', state.userName.toLowerCase())
    .executeTakeFirst();
  if ((byEmail && byEmail.id !== exceptId) || (byName && byName.user_id !== exceptId)) throw takenError();
}

const takenError = () =>
  scimErrors.uniqueness(
    'An operator with this userName or email exists already (an operator added in the console stays the console’s).',
  );

/**
 * A new operator managed by the directory: no password (they sign in through SSO), the default
 * role. One the directory deleted before, by the same userName, is taken back instead: with none of
 * their former ways in, which their deletion took (deleteScimOperator).
 */
export async function createScimOperator(writer: ScimWriter, state: ScimUserState): Promise<string> {
  const { auth, db, scim } = writer;
  const deleted = await db
    .selectFrom('scim_user')
    .select('user_id')
    .where('user_name_key', '=', state.userName.toLowerCase())
    .where('deleted_at', 'is not', null)
    .executeTakeFirst();
  if (deleted) {
    await refuseTaken(db, state, deleted.user_id);
    await db
      .updateTable('scim_user')
      .set({ deleted_at: null })
      .where('user_id', '=', deleted.user_id)
      .execute();
    const current = await findScimOperator(db, deleted.user_id);
    if (current) await updateScimOperator(writer, current, state);
    return deleted.user_id;
  }
  await refuseTaken(db, state, null);
  // Two creates of one person at once: the second meets better-auth's unique email, 409 as well.
  const { user } = await auth.api
    .createUser({
      body: { email: state.email, name: state.name, role: scim.defaultRole, data: { emailVerified: true } },
    })
    .catch(async (error: unknown) => {
      const taken = await db
        .selectFrom('user')
        .select('id')
        .where('email', '=', state.email)
        .executeTakeFirst();
      throw isAPIError(error) || taken ? takenError() : error;
    });
  const at = new Date(writer.clock.now()).toISOString();
  try {
    await db
      .insertInto('scim_user')
      .values({
        user_id: user.id,
        user_name: state.userName,
        user_name_key: state.userName.toLowerCase(),
        external_id: state.externalId,
        given_name: state.givenName,
        family_name: state.familyName,
        created_at: at,
        updated_at: at,
        deleted_at: null,
      })
      .execute();
  } catch {
    // The userName was taken meanwhile (its unique index): no half-made operator stays behind.
    await (await auth.$context).internalAdapter.deleteUser(user.id);
    throw takenError();
  }
  if (!state.active) await setActive(writer, user.id, false);
  return user.id;
}

/** Writes the state; deactivating ends every session of theirs at once. */
export async function updateScimOperator(
  writer: ScimWriter,
  current: ScimOperator,
  state: ScimUserState,
): Promise<void> {
  const { auth, db } = writer;
  await refuseTaken(db, state, current.id);
  const context = await auth.$context;
  if (state.email !== current.email || state.name !== current.name)
    await context.internalAdapter.updateUser(current.id, { email: state.email, name: state.name });
  await db
    .updateTable('scim_user')
    .set({
      user_name: state.userName,
      user_name_key: state.userName.toLowerCase(),
      external_id: state.externalId,
      given_name: state.givenName,
      family_name: state.familyName,
      updated_at: new Date(writer.clock.now()).toISOString(),
    })
    .where('user_id', '=', current.id)
    .execute();
  if (state.active !== current.active) await setActive(writer, current.id, state.active);
}

/**
 * Disabled (better-auth's ban: no sign-in) with every session row deleted, so that each open browser
 * is signed out on its next request (sessions are read from the database on every request: no
 * cookie cache), or enabled again.
 */
async function setActive({ auth }: ScimWriter, id: string, active: boolean): Promise<void> {
  const context = await auth.$context;
  await context.internalAdapter.updateUser(id, {
    banned: !active,
    banReason: active ? null : 'deactivated by the directory (SCIM)',
  });
  if (!active) await context.internalAdapter.deleteUserSessions(id);
}

/**
 * DELETE: the operator is disabled and their sessions end, as for a deactivation, and SCIM answers
 * 404 for them from then on. Every way in they had goes too: passkeys, the authenticator app's
 * secret, the password and single sign-on links, unused invitation links. The directory may create
 * the same userName again (a rehire, or a new person given the old address): the operator it takes
 * back has none of the leaver's ways in. Their row stays (the audit log's entries name them), still
 * managed by the directory: the console cannot enable them again.
 */
export async function deleteScimOperator(writer: ScimWriter, id: string): Promise<void> {
  await setActive(writer, id, false);
  const at = new Date(writer.clock.now()).toISOString();
  await leaveEveryGroup(writer, id, async (trx) => {
    await trx.deleteFrom('passkey').where('userId', '=', id).execute();
    await trx.deleteFrom('twoFactor').where('userId', '=', id).execute();
    await trx
      .updateTable('user')
      .set({ twoFactorEnabled: writer.dialect === 'sqlite' ? 0 : false })
      .where('id', '=', id)
      .execute();
    await trx.deleteFrom('account').where('userId', '=', id).execute();
    await trx.deleteFrom('session').where('userId', '=', id).execute();
    await voidOpenInvitations(trx, id, new Date(at));
    await trx
      .updateTable('scim_user')
      .set({ deleted_at: at, updated_at: at })
      .where('user_id', '=', id)
      .execute();
  });
}
