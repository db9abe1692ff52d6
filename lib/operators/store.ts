import { isAPIError } from 'better-auth/api';
import type { ConsoleAuth } from '@/lib/auth/options';
import { ConsoleError } from '@/lib/console-error';
import type { ConsoleDatabase, ConsoleDb } from '@/lib/db/console-database';
import { openInvitations } from '@/lib/invitations/store';
import type { CreateOperatorRequest, OperatorSummary } from '@/lib/operators/contract';
import { parseRole, type Role } from '@/lib/roles';

/**
 * Operator management for admins, on better-auth's admin plugin (roles, and bans as "disabled":
 * a banned operator cannot sign in and banning ends their sessions). Calls carry the admin's
 * request headers, so better-auth checks the admin's session and role a second time. Refusals
 * throw ConsoleError.
 */
export interface OperatorStore {
  auth: ConsoleAuth;
  database: ConsoleDatabase;
}

export async function listOperators({ database }: OperatorStore): Promise<OperatorSummary[]> {
  const { db } = database;
  const [rows, invitations, accounts, managed] = await Promise.all([
    db
      .selectFrom('user')
      .select(['id', 'email', 'name', 'role', 'banned', 'twoFactorEnabled', 'createdAt', 'lastSignInAt'])
      .select((eb) =>
        eb
          .selectFrom('passkey')
          .select((inner) => inner.fn.countAll<number | string>().as('count'))
          .whereRef('passkey.userId', '=', 'user.id')
          .as('passkeys'),
      )
      .orderBy('email')
      .execute(),
    openInvitations(db),
    db.selectFrom('account').select(['userId', 'providerId']).distinct().execute(),
    db.selectFrom('scim_user').select('user_id').execute(),
  ]);
  const signedUp = new Set(accounts.map((row) => row.userId));
  const directory = new Set(managed.map((row) => row.user_id));
  return rows.map((row) => ({
    id: row.id,
    email: row.email,
    name: row.name,
    role: parseRole(row.role),
    disabled: Boolean(row.banned),
    twoFactorEnabled: Boolean(row.twoFactorEnabled) || Number(row.passkeys ?? 0) > 0,
    secondFactor: secondFactorOf(Boolean(row.twoFactorEnabled), Number(row.passkeys ?? 0) > 0),
    signsInWith: signInWayOf(accounts.filter((account) => account.userId === row.id)),
    managedByDirectory: directory.has(row.id),
    lastSignInAt: row.lastSignInAt === null ? null : new Date(row.lastSignInAt).toISOString(),
    createdAt: new Date(row.createdAt).toISOString(),
    invitationExpiresAt: signedUp.has(row.id) ? null : (invitations.get(row.id) ?? null),
  }));
}

/** A `credential` account is a console password; any other provider is the company's SSO. */
function signInWayOf(accounts: readonly { providerId: string }[]): OperatorSummary['signsInWith'] {
  const password = accounts.some((account) => account.providerId === 'credential');
  const sso = accounts.some((account) => account.providerId !== 'credential');
  if (password && sso) return 'password and SSO';
  return password ? 'password' : sso ? 'SSO' : 'none yet';
}

function secondFactorOf(app: boolean, passkey: boolean): OperatorSummary['secondFactor'] {
  if (app && passkey) return 'authenticator app and passkey';
  return app ? 'authenticator app' : passkey ? 'passkey' : 'none';
}

export async function findOperator(store: OperatorStore, id: string): Promise<OperatorSummary | null> {
  return (await listOperators(store)).find((operator) => operator.id === id) ?? null;
}

export async function createOperator(
  { auth }: OperatorStore,
  input: CreateOperatorRequest,
  headers: Headers,
): Promise<OperatorSummary> {
  try {
    const { user } = await auth.api.createUser({
      headers,
      body: {
        email: input.email,
        name: input.name,
        // No password: the operator chooses one through their invitation (lib/invitations/server.ts).
        role: input.role,
        // The admin vouches for the address: SSO may link to this operator later.
        data: { emailVerified: true },
      },
    });
    return {
      id: user.id,
      email: user.email,
      name: user.name,
      role: input.role,
      disabled: false,
      twoFactorEnabled: false,
      secondFactor: 'none',
      signsInWith: 'none yet',
      managedByDirectory: false,
      lastSignInAt: null,
      createdAt: new Date(user.createdAt).toISOString(),
      invitationExpiresAt: null,
    };
  } catch (error) {
    throw fromAuthError(error);
  }
}

export async function setOperatorRole(
  { auth }: OperatorStore,
  actorId: string,
  id: string,
  role: Role,
  headers: Headers,
): Promise<void> {
  refuseSelf(actorId, id, 'change your own role');
  try {
    await auth.api.setRole({ headers, body: { userId: id, role } });
  } catch (error) {
    throw fromAuthError(error);
  }
}

export async function setOperatorDisabled(
  { auth }: OperatorStore,
  actorId: string,
  id: string,
  disabled: boolean,
  headers: Headers,
): Promise<void> {
  refuseSelf(actorId, id, disabled ? 'disable yourself' : 'enable yourself');
  try {
    if (disabled)
      await auth.api.banUser({ headers, body: { userId: id, banReason: 'disabled by an admin' } });
    else await auth.api.unbanUser({ headers, body: { userId: id } });
  } catch (error) {
    throw fromAuthError(error);
  }
}

/** Removes an operator who never came in (a revoked invitation): their row and anything tied to it. */
export async function removeOperator({ auth }: OperatorStore, id: string, headers: Headers): Promise<void> {
  try {
    await auth.api.removeUser({ headers, body: { userId: id } });
  } catch (error) {
    throw fromAuthError(error);
  }
}

/**
 * The password an invited operator chose, stored as better-auth stores any (its hash, on a
 * `credential` account). Refused when they have one already: an invitation never replaces a password.
 */
export async function setFirstPassword({ auth }: OperatorStore, id: string, password: string): Promise<void> {
  const context = await auth.$context;
  if (await context.internalAdapter.findCredentialAccount(id))
    throw new ConsoleError('conflict', 'You have a password already: sign in with it.');
  const hash = await context.password.hash(password);
  await context.internalAdapter.createAccount({
    userId: id,
    providerId: 'credential',
    accountId: id,
    password: hash,
  });
}

/** An admin who demotes or disables themselves could leave the console without one. */
function refuseSelf(actorId: string, id: string, what: string): void {
  if (actorId === id) throw new ConsoleError('invalid_request', `You cannot ${what}: ask another admin.`);
}

function fromAuthError(error: unknown): unknown {
  if (!isAPIError(error)) return error;
  const code = (error.body as { code?: string } | undefined)?.code ?? '';
  switch (code) {
    case 'USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL':
    case 'USER_ALREADY_EXISTS':
      return new ConsoleError('invalid_request', 'An operator with this email exists already.', {
        fields: { email: 'is already an operator' },
      });
    case 'INVALID_EMAIL':
      return new ConsoleError('invalid_request', 'Check the email address.', {
        fields: { email: 'is not valid' },
      });
    case 'PASSWORD_TOO_SHORT':
    case 'PASSWORD_TOO_LONG':
      return new ConsoleError('invalid_request', 'Check the password length.', {
        fields: { password: code === 'PASSWORD_TOO_SHORT' ? 'is too short' : 'is too long' },
      });
    case 'USER_NOT_FOUND':
      return new ConsoleError('not_found', 'No operator has that id.');
    default:
      if (error.statusCode === 401) return new ConsoleError('unauthenticated', 'Sign in again.');
      if (error.statusCode === 403) return new ConsoleError('forbidden', 'Only admins manage operators.');
      return new Error(`better-auth refused the operator change (${error.statusCode})`);
  }
}

/** Whether the operator has a console password (an SSO-only operator has none). */
export async function operatorHasPassword(db: ConsoleDb, id: string): Promise<boolean> {
  const credential = await db
    .selectFrom('account')
    .select('id')
    .where('userId', '=', id)
    .where('providerId', '=', 'credential')
    .executeTakeFirst();
  return credential !== undefined;
}
