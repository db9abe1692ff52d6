import 'server-only';
import { approvalIdOf, decideApproval, requestApproval, settleApproved } from '@/lib/approvals/frame';
import { ConsoleError } from '@/lib/console-error';
import type { Action, AuditFacts } from './action';

/**
 * The approval stage, first half: a decision on a request for this action (`?approval=<id>`).
 * Rejecting or withdrawing answers at once; approving hands the action the body it was requested
 * with, and it runs below as its requester asked it, on record with both names.
 */
export async function decideStage<Path extends string, Body, Result, Subject>(
  action: Action<Path, Body, Result, Subject>,
): Promise<Response | null> {
  const { spec, server, request, requestId, operator } = action;
  const id = spec.approval ? approvalIdOf(request) : null;
  if (id === null) return null;
  const decided = await decideApproval({
    server,
    route: spec,
    request,
    requestId,
    operator,
    id,
    schema: spec.body,
  });
  if ('answer' in decided) return decided.answer;
  action.approved = decided.approved;
  action.body = decided.approved.body as Body;
  return null;
}

/**
 * The approval stage, second half: where CONSOLE_REQUIRE_APPROVAL names this request's action, it
 * is recorded pending and answered 202; null lets the action run.
 */
export async function requestStage<Path extends string, Body, Result, Subject>(
  action: Action<Path, Body, Result, Subject>,
  facts: AuditFacts,
): Promise<Response | null> {
  const { spec, server, request, requestId, operator, body, subject, environment, reason } = action;
  if (!spec.approval || !spec.audit || action.approved) return null;
  return requestApproval({
    server,
    approval: spec.approval,
    route: { name: spec.name, method: spec.method as 'POST' | 'PATCH', permission: spec.permission },
    request,
    requestId,
    operator,
    body,
    subject,
    environment,
    reason,
    facts,
  });
}

/** Once claimed, an approval is settled with its action's outcome, whatever it is. */
export async function settleFailedApproval<Path extends string, Body, Result, Subject>(
  action: Action<Path, Body, Result, Subject>,
  error: unknown,
): Promise<void> {
  if (action.approved)
    await settleApproved(
      action.server,
      action.approved,
      error instanceof ConsoleError ? error.code : 'internal',
    );
}

/** An approved action's answer: the approval settled, the action's answer beside (as the approver may see it). */
export function settleSucceededApproval<Path extends string, Body, Result, Subject>(
  action: Action<Path, Body, Result, Subject>,
  result: unknown,
): Promise<Response> | null {
  if (!action.approved) return null;
  return settleApproved(
    action.server,
    action.approved,
    'success',
    result,
    action.spec.approval?.approverSees,
  );
}
