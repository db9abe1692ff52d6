import 'server-only';
import { isAPIError } from 'better-auth/api';
import { type ConsoleFailure, consoleFailure } from '@/lib/console/errors';
import { withOperators } from './database';
import type { CreateOperatorRequest, OperatorSummary } from './operators.schema';
import { parseRole, type Role } from './roles';
import { consoleServer, type Operator } from './server';

/**
 * Operator management for admins, on better-auth's admin plugin (roles, and bans as "disabled":
 * a banned operator cannot sign in and banning ends their sessions). Calls carry the admin's
 * request headers, so better-auth checks the admin's session and role a second time.
 */
export class OperatorChangeError extends Error {
  constructor(readonly failure: ConsoleFailure) {
    super(failure.body.error.message);
    this.name = 'OperatorChangeError';
  }
}

export async function listOperators(): Promise<OperatorSummary[]> {
  const { database } = await consoleServer();
  const rows = await withOperators(database.db)
    .selectFrom('user')
    .select(['id', 'email', 'name', 'role', 'banned', 'createdAt'])
    .orderBy('email')
    .execute();
  return rows.map((row) => ({
    id: row.id,
    email: row.email,
    name: row.name,
    role: parseRole(row.role),
    disabled: Boolean(row.banned),
    createdAt: new Date(row.createdAt).toISOString(),
  }));
}

export async function findOperator(id: string): Promise<OperatorSummary | null> {
  return (await listOperators()).find((operator) => operator.id === id) ?? null;
}

export async function createOperator(
  input: CreateOperatorRequest,
  headers: Headers,
): Promise<OperatorSummary> {
  const { auth } = await consoleServer();
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
      createdAt: new Date(user.createdAt).toISOString(),
    };
  } catch (error) {
    throw toOperatorChangeError(error);
  }
}

export async function setOperatorRole(
  actor: Operator,
  id: string,
  role: Role,
  headers: Headers,
): Promise<void> {
  refuseSelf(actor, id, 'change your own role');
  const { auth } = await consoleServer();
  try {
    await auth.api.setRole({ headers, body: { userId: id, role } });
  } catch (error) {
    throw toOperatorChangeError(error);
  }
}

export async function setOperatorDisabled(
  actor: Operator,
  id: string,
  disabled: boolean,
  headers: Headers,
): Promise<void> {
  refuseSelf(actor, id, disabled ? 'disable yourself' : 'enable yourself');
  const { auth } = await consoleServer();
  try {
    if (disabled)
      await auth.api.banUser({ headers, body: { userId: id, banReason: 'disabled by an admin' } });
    else await auth.api.unbanUser({ headers, body: { userId: id } });
  } catch (error) {
    throw toOperatorChangeError(error);
  }
}

/** An admin who demotes or disables themselves could leave the console without one. */
function refuseSelf(actor: Operator, id: string, what: string): void {
  if (actor.id === id) {
    throw new OperatorChangeError(
      consoleFailure(400, 'invalid_request', `You cannot ${what}: ask another admin.`),
    );
  }
}

function toOperatorChangeError(error: unknown): Error {
  if (!isAPIError(error)) return error instanceof Error ? error : new Error('operator change failed');
  const code = (error.body as { code?: string } | undefined)?.code ?? '';
  switch (code) {
    case 'USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL':
    case 'USER_ALREADY_EXISTS':
      return new OperatorChangeError(
        consoleFailure(400, 'invalid_request', 'An operator with this email exists already.', {
          fields: { email: 'is already an operator' },
        }),
      );
    case 'INVALID_EMAIL':
      return new OperatorChangeError(
        consoleFailure(400, 'invalid_request', 'Check the email address.', {
          fields: { email: 'is not valid' },
        }),
      );
    case 'PASSWORD_TOO_SHORT':
    case 'PASSWORD_TOO_LONG':
      return new OperatorChangeError(
        consoleFailure(400, 'invalid_request', 'Check the password length.', {
          fields: { password: code === 'PASSWORD_TOO_SHORT' ? 'is too short' : 'is too long' },
        }),
      );
    case 'USER_NOT_FOUND':
      return new OperatorChangeError(consoleFailure(404, 'not_found', 'No operator has that id.'));
    default:
      if (error.statusCode === 401) {
        return new OperatorChangeError(consoleFailure(401, 'unauthenticated', 'Sign in again.'));
      }
      if (error.statusCode === 403) {
        return new OperatorChangeError(consoleFailure(403, 'forbidden', 'Only admins manage operators.'));
      }
      return new Error(`better-auth refused the operator change (${error.statusCode})`);
  }
}
