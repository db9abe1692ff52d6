import 'server-only';
import { ConsoleError } from '@/lib/console-error';
import type { OperatorSummary } from '@/lib/operators/contract';
import { findOperator } from '@/lib/operators/store';
import type { ConsoleServer, Operator } from '@/lib/server';

/**
 * What an admin's change of another operator acts on, read by the route frame before the change is
 * on record (lib/server/route.ts `load`): the operator the URL names, or 404.
 */
export async function targetOperator({
  server,
  params,
}: {
  server: ConsoleServer;
  params: { id: string };
}): Promise<OperatorSummary> {
  const target = await findOperator(server, params.id);
  if (!target) throw new ConsoleError('not_found', 'No operator has that id.');
  return target;
}

/** An operator whose invitation is still open (sent again or withdrawn), or 409. */
export async function invitedOperator(context: {
  server: ConsoleServer;
  params: { id: string };
}): Promise<OperatorSummary> {
  const target = await targetOperator(context);
  if (target.invitationExpiresAt === null)
    throw new ConsoleError('conflict', `${target.email} has no open invitation: they are in already.`);
  return target;
}

/**
 * Another operator, whose second factor an admin resets. One's own goes through the account page,
 * which asks for the password (and keeps a role that must have one from removing it).
 */
export async function otherOperator(context: {
  server: ConsoleServer;
  operator: Operator;
  params: { id: string };
}): Promise<OperatorSummary> {
  const target = await targetOperator(context);
  if (target.id === context.operator.id)
    throw new ConsoleError('conflict', 'Your own second factor is changed on your account page.');
  return target;
}

/**
 * An operator the company's directory manages (SCIM) has their role and status from it: the console
 * refuses to change them (409), on record like any refusal, so that the two never disagree.
 */
export function refuseDirectoryManaged(target: OperatorSummary): void {
  if (target.managedByDirectory)
    throw new ConsoleError(
      'conflict',
      `${target.email} is managed by your directory: change their role or status there, and it reaches the console.`,
    );
}
