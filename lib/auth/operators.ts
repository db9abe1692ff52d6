import { isAPIError } from 'better-auth/api';
import { ConsoleError } from '@/lib/console-api/console-error';
import type { CreateOperatorRequest, OperatorSummary } from '@/lib/console-api/operators';
import type { ConsoleDatabase, ConsoleDb } from '@/lib/db/console-database';
import { parseRole, type Role } from '@/lib/roles';
import type { ConsoleAuth } from './options';

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
  const rows = await database.db
    .selectFrom('user')
    .select(['id', 'email', 'name', 'role', 'banned', 'twoFactorEnabled', 'createdAt'])
    .select((eb) =>
      eb
        .selectFrom('passkey')
        .select((inner) => inner.fn.countAll<number | string>().as('count'))
        .whereRef('passkey.userId', '=', 'user.id')
        .as('passkeys'),
    )
    .orderBy('email')
    .execute();
  return rows.map((row) => ({
    id: row.id,
    email: row.email,
    name: row.name,
    role: parseRole(row.role),
    disabled: Boolean(row.banned),
    twoFactorEnabled: Boolean(row.twoFactorEnabled) || Number(row.passkeys ?? 0) > 0,
    createdAt: new Date(row.createdAt).toISOString(),
  }));
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
        password: input.password,
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
      createdAt: new Date(user.createdAt).toISOString(),
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
