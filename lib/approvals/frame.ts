import 'server-only';
import * as z from 'zod/mini';
import {
  APPROVAL_REASON_FIELD,
  type ApprovalAction,
  approvalDecisionSchema,
  approvalReasonSchema,
  policyCovers,
} from '@/lib/approvals/contract';
import { grantCovered } from '@/lib/approvals/policy';
import { requesterOf } from '@/lib/approvals/requester';
import { broughtInBy } from '@/lib/approvals/sponsors';
import {
  type ApprovalRow,
  claimApproval,
  endApproval,
  findApprovalRequest,
  findPendingLike,
  recordApprovalRequest,
  requestedBody,
  settleApproval,
  stateOf,
  toApprovalView,
} from '@/lib/approvals/store';
import type { AuditAction } from '@/lib/audit/actions';
import type { AuditEntry } from '@/lib/audit/store';
import { ConsoleError } from '@/lib/console-error';
import type { Environment } from '@/lib/environments';
import type { Permission, Role } from '@/lib/roles';
import type { ConsoleServer, Operator } from '@/lib/server';
import { invalidRequest } from '@/lib/server/errors';
import { writeAudited, writeRefusal } from '@/lib/server/frame/writer';
import { readJson } from '@/lib/server/request-body';
import { requireRecentAuthentication } from '@/lib/two-factor/step-up';
import { fieldErrors } from '@/lib/validation/field-errors';

/**
 * How a route's action is subject to two-person approval (CONSOLE_REQUIRE_APPROVAL): which policy
 * action a request is, what it acts on in words, and which body fields are secret.
 */
export interface RouteApproval<Body, Subject> {
  /** The policy action this request is, or null (a job's pause, a role other than admin). */
  action: (body: Body, subject: Subject) => ApprovalAction | null;
  /** What it acts on, in words, for the one who approves. */
  subject: (body: Body, subject: Subject) => string;
  /** Fields sealed while the request waits (the token a delete presents), never shown. */
  secretFields?: readonly string[];
  /**
   * What the approver is shown of the approved action's answer: a new admin's invitation link is
   * never theirs (they could accept it and hold a second admin). The whole answer when unsaid.
   */
  approverSees?: (answer: never) => unknown;
  /**
   * For a grant (`grant-admin`): the role it gives. The policy covers it when that role can approve
   * an action the policy names (support, under `bulk-rotate`); unsaid, the action alone decides.
   */
  grants?: (body: Body, subject: Subject) => Role | null;
  /**
   * Where the policy covers the request: a refusal before anything waits, for a request that could
   * only lead nowhere (a new admin's link with no mail server to send it to them alone).
   */
  refuse?: (body: Body, subject: Subject, server: ConsoleServer) => void;
}

/** Now, by the server's clock (lib/server/index.ts hands it down). */
const nowOf = (server: ConsoleServer) => new Date(server.clock.now());

/** Whether the policy names this request: a grant by the role it gives, anything else by its action. */
function covered<Body, Subject>(
  server: ConsoleServer,
  approval: RouteApproval<Body, Subject>,
  body: Body,
  subject: Subject,
  environment: Environment | null,
): ApprovalAction | null {
  const { rules } = server.config.approvals;
  const action = approval.action(body, subject);
  if (!action) return null;
  if (action === 'grant-admin' && approval.grants)
    return grantCovered(rules, approval.grants(body, subject)) ? action : null;
  return policyCovers(rules, action, environment) ? action : null;
}

/** The approval a request's URL names (`?approval=<id>`): a decision on it, not the action itself. */
export function approvalIdOf(request: Request): string | null {
  return new URL(request.url).searchParams.get('approval');
}

interface RequestContext<Body, Subject> {
  server: ConsoleServer;
  approval: RouteApproval<Body, Subject>;
  route: { name: string; method: 'POST' | 'PATCH'; permission: Permission };
  request: Request;
  requestId: string;
  operator: Operator;
  body: Body;
  subject: Subject;
  environment: Environment | null;
  reason: unknown;
  /** What the action's own entry would say (the group, the token's fingerprint). */
  facts: Omit<AuditEntry, 'action' | 'operator' | 'outcome' | 'requestId'>;
}

/**
 * Where the policy names this request's action: records it pending (on record first, its secret
 * fields sealed) and answers 202 `{ approval }`. Null where the policy does not: the action runs.
 */
export async function requestApproval<Body, Subject>(
  context: RequestContext<Body, Subject>,
): Promise<Response | null> {
  const { server, approval, operator, body, subject, environment } = context;
  const action = covered(server, approval, body, subject, environment);
  if (!action) return null;
  approval.refuse?.(body, subject, server);
  const reason = approvalReasonSchema.safeParse(context.reason ?? '');
  if (!reason.success)
    throw invalidRequest({ [APPROVAL_REASON_FIELD]: reason.error.issues[0]?.message ?? 'is required' });
  const secret: Record<string, unknown> = {};
  const kept: Record<string, unknown> = { ...(body as Record<string, unknown>) };
  for (const field of approval.secretFields ?? []) {
    if (field in kept) secret[field] = kept[field];
    delete kept[field];
  }
  const now = nowOf(server);
  const path = new URL(context.request.url).pathname;
  const waiting = await findPendingLike(
    server.database.db,
    { routeName: context.route.name, path, body: kept },
    now,
  );
  if (waiting)
    throw new ConsoleError(
      'conflict',
      `The same request is already waiting for approval (asked by ${waiting.requested_by_email}): approve, reject or withdraw that one.`,
    );
  const what = approval.subject(body, subject);
  const id = await writeAudited(
    server.auditLog,
    {
      ...context.facts,
      action: 'approval.request',
      environment,
      operator: { id: operator.id, email: operator.email },
      requestId: context.requestId,
      detail: `${action}: ${what}; reason: ${reason.data}`,
    },
    () =>
      recordApprovalRequest(
        server.database.db,
        server.jobs.vault,
        {
          action,
          environment,
          routeName: context.route.name,
          method: context.route.method,
          path,
          permission: context.route.permission,
          subject: what,
          body: kept,
          secret: Object.keys(secret).length > 0 ? secret : null,
          reason: reason.data,
          requestedBy: operator,
          expiresAt: new Date(now.getTime() + server.config.approvals.minutes * 60_000),
        },
        now,
      ),
    {},
  );
  const row = await findApprovalRequest(server.database.db, id);
  if (!row) throw new Error('an approval request vanished as it was recorded');
  return Response.json({ approval: toApprovalView(row, operator, nowOf(server)) }, { status: 202 });
}

/** An approval claimed: the body it was requested with, whose it was, and who approved it. */
export interface Approved {
  row: ApprovalRow;
  body: unknown;
  requester: Operator;
  approver: Operator;
}

interface DecisionContext {
  server: ConsoleServer;
  route: { name: string; permission: Permission };
  request: Request;
  requestId: string;
  operator: Operator;
  id: string;
  /** The route's body schema: the stored body is checked with it again before it is claimed. */
  schema?: z.core.$ZodType<unknown>;
}

/**
 * A decision on a request for this route's action, sent to the route itself (`?approval=<id>`), so
 * that the one who decides holds the route's own permission in its own environment. Rejecting and
 * withdrawing end the request (on record) and answer it; approving (after a recent authentication,
 * never by whoever asked) claims it in one conditional update and hands back the body it was
 * requested with, which the route frame then carries out like any request, once.
 */
export async function decideApproval(
  context: DecisionContext,
): Promise<{ answer: Response } | { approved: Approved }> {
  const { server, operator, id } = context;
  const db = server.database.db;
  const decision = z.safeParse(approvalDecisionSchema, await readJson(context.request));
  if (!decision.success) throw invalidRequest(fieldErrors(decision.error));
  const row = await findApprovalRequest(db, id);
  // Bound to the route and the URL it was requested at: no other route carries it out.
  if (!row || row.route_name !== context.route.name || row.path !== new URL(context.request.url).pathname)
    throw new ConsoleError('not_found', 'No approval request has that id.');
  const { decision: kind } = decision.data;
  const action: AuditAction =
    kind === 'approve' ? 'approval.approve' : kind === 'reject' ? 'approval.reject' : 'approval.withdraw';
  const asked = `${row.action}: ${row.subject}; asked by ${row.requested_by_email}`;
  // A refused decision (its requester approving, a stale sign-in, a request decided or expired) is
  // on record with its code, so that attempts show as well as decisions.
  const refused = async (error: unknown): Promise<never> => {
    if (error instanceof ConsoleError)
      await writeRefusal(server.auditLog, {
        action,
        environment: row.environment as Environment | null,
        operator: { id: operator.id, email: operator.email },
        outcome: error.code,
        requestId: context.requestId,
        detail: `${asked}; approval ${row.id}`,
      });
    throw error;
  };
  try {
    const approved = await checkDecision(context, row, decision.data);
    if (approved) return { approved };
  } catch (error) {
    return refused(error);
  }
  const now = nowOf(server);
  const reason = kind === 'reject' ? decision.data.reason : null;
  await writeAudited(
    server.auditLog,
    {
      action,
      environment: row.environment as Environment | null,
      operator: { id: operator.id, email: operator.email },
      requestId: context.requestId,
      detail: `${asked}${reason ? `; reason: ${reason}` : ''}`,
    },
    async () => {
      const state = kind === 'reject' ? 'rejected' : 'withdrawn';
      if (!(await endApproval(db, id, { state, by: operator, reason }, now)))
        throw new ConsoleError(
          'conflict',
          kind === 'withdraw'
            ? 'Only whoever asked may withdraw a request, while it is pending.'
            : 'This request has just been decided by someone else, or has expired.',
        );
    },
    {},
  );
  return { answer: await decidedAnswer(server, id, operator) };
}

/**
 * Whether the decision may be made: the decider stepped up and is not the requester (withdrawing
 * aside), the request is pending; an approval is claimed here and answered, with the body it was
 * requested with. Null for a reject or withdraw that may go ahead.
 */
async function checkDecision(
  context: DecisionContext,
  row: ApprovalRow,
  decision: z.infer<typeof approvalDecisionSchema>,
): Promise<Approved | null> {
  const { server, operator, id } = context;
  const kind = decision.decision;
  if (kind !== 'withdraw') {
    requireRecentAuthentication(operator, 'privileges', server.config, server.clock);
    if (row.requested_by === operator.id)
      throw new ConsoleError('forbidden', 'You asked for this: another operator must approve or reject it.');
  }
  const now = nowOf(server);
  if (stateOf(row, now) !== 'pending')
    throw new ConsoleError('conflict', `This request is ${stateOf(row, now)}: it can no longer be decided.`);
  if (kind === 'approve') {
    // A second account is not a second person: whoever the requester brought in or raised (or
    // someone they did) may hold that account, so it never approves the requester's requests.
    const how = await broughtInBy(server.database.db, operator.id, row.requested_by);
    if (how)
      throw new ConsoleError(
        'forbidden',
        `${row.requested_by_email} ${sponsorWords[how]} (or someone they brought in): an approval from you would not be a second person's. Another operator must approve or reject it.`,
      );
    const requester = await requesterOf(server, row);
    const stored = requestedBody(row, server.jobs.vault);
    const checked = context.schema ? z.safeParse(context.schema, stored) : { success: true, data: stored };
    if (!checked.success)
      throw new ConsoleError('conflict', 'This request can no longer be carried out as asked.');
    const body = checked.data;
    const reason = decision.reason || null;
    if (!(await claimApproval(server.database.db, id, operator, reason, now)))
      throw new ConsoleError(
        'conflict',
        'This request has just been decided by someone else, or has expired.',
      );
    return { row, body, requester, approver: operator };
  }
  return null;
}

const sponsorWords = {
  invited: 'invited you',
  'new link': 'sent you an invitation link',
  role: 'gave you your role',
  enabled: 'enabled your account',
} as const;

/** The entry of an approved action names who approved it, beside its requester as the operator. */
export function approvalNote(approved: Approved, detail: string | null | undefined): string {
  const reason = approved.row.decision_reason ? `: ${approved.row.decision_reason}` : '';
  const note = `approved by ${approved.approver.email} (asked by ${approved.requester.email}: ${approved.row.reason}; approval ${approved.row.id}${reason})`;
  return detail ? `${detail}; ${note}` : note;
}

/** Settles an approved request with its action's outcome and answers it, the action's answer beside. */
export async function settleApproved(
  server: ConsoleServer,
  approved: Approved,
  outcome: string,
  result?: unknown,
  approverSees?: (answer: never) => unknown,
): Promise<Response> {
  await settleApproval(server.database.db, approved.row.id, outcome);
  const answer = await decidedAnswer(server, approved.row.id, approved.approver);
  const body = (await answer.json()) as object;
  const whole = result instanceof Response ? await result.json().catch(() => undefined) : result;
  const shown = whole !== undefined && approverSees ? approverSees(whole as never) : whole;
  return Response.json({ ...body, ...(shown === undefined ? {} : { result: shown }) });
}

async function decidedAnswer(server: ConsoleServer, id: string, reader: Operator): Promise<Response> {
  const row = await findApprovalRequest(server.database.db, id);
  if (!row) throw new ConsoleError('not_found', 'No approval request has that id.');
  return Response.json({ approval: toApprovalView(row, reader, nowOf(server)) });
}
