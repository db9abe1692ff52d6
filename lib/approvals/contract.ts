/**
 * Two-person approval (CONSOLE_REQUIRE_APPROVAL): the actions a policy may name, and the wire shapes
 * of a request waiting for a second person. Plain module: the browser imports it.
 */
import * as z from 'zod/mini';
import { environments } from '@/lib/environments';

/** What a policy may name: a group's delete, a bulk rotation's start, granting the admin role. */
export const approvalActions = ['delete', 'bulk-rotate', 'grant-admin'] as const;
export type ApprovalAction = (typeof approvalActions)[number];

export const approvalActionWords: Record<ApprovalAction, string> = {
  delete: 'Delete a user group',
  'bulk-rotate': 'Start a bulk rotation',
  'grant-admin': 'Grant a role that can approve',
};

/** One rule of the policy: the action, in one environment or (null) in all. */
export interface ApprovalRule {
  action: ApprovalAction;
  environment: (typeof environments)[number] | null;
}

/** Whether the policy names this action in this environment. */
export function policyCovers(
  rules: readonly ApprovalRule[],
  action: ApprovalAction | null,
  environment: ApprovalRule['environment'],
): boolean {
  return rules.some(
    (rule) => rule.action === action && (rule.environment === null || rule.environment === environment),
  );
}

const approvalStates = ['pending', 'approved', 'rejected', 'withdrawn', 'expired'] as const;
export type ApprovalState = (typeof approvalStates)[number];

/** The requester's reason, sent beside the action's own fields. */
export const APPROVAL_REASON_FIELD = 'approvalReason';
const APPROVAL_REASON_MAX = 500;

export const approvalReasonSchema = z
  .string()
  .check(
    z.trim(),
    z.minLength(1, { error: 'Say why this is needed: another operator reads it before approving.' }),
    z.maxLength(APPROVAL_REASON_MAX, { error: `must be at most ${APPROVAL_REASON_MAX} characters` }),
  );

const approvalViewSchema = z.object({
  id: z.string(),
  action: z.enum(approvalActions),
  environment: z.nullable(z.enum(environments as [string, ...string[]])),
  /** What it acts on, in words: the group, the job and its count, the operator. */
  subject: z.string(),
  reason: z.string(),
  requestedBy: z.string(),
  requestedAt: z.string(),
  expiresAt: z.string(),
  /** `pending` past its expiry reads `expired`. */
  state: z.enum(approvalStates),
  decidedBy: z.nullable(z.string()),
  decidedAt: z.nullable(z.string()),
  decisionReason: z.nullable(z.string()),
  /** Once approved: `success`, or the code the action was refused with; null while under way. */
  outcome: z.nullable(z.string()),
  /** Where the decision is sent: the action's own route (its method and path). */
  method: z.enum(['POST', 'PATCH']),
  path: z.string(),
  /** Whether the one reading it may approve or reject it (allowed to do it, and not its requester). */
  canDecide: z.boolean(),
  /** Whether the one reading it asked for it (and may withdraw it while pending). */
  mine: z.boolean(),
});
export type ApprovalView = z.infer<typeof approvalViewSchema>;

/** What an action the policy covers answers (202): the request, waiting for another operator. */
export const approvalPendingSchema = z.object({ approval: approvalViewSchema });

export const approvalListSchema = z.object({
  approvals: z.array(approvalViewSchema),
  /** Pending requests the reader may decide: the header's count. */
  waiting: z.number(),
});

/** The one reading sends to the action's route, `?approval=<id>`: approve, reject or withdraw. */
export const approvalDecisionSchema = z.union([
  z.strictObject({ decision: z.literal('approve'), reason: z.optional(z.string().check(z.trim())) }),
  z.strictObject({ decision: z.literal('reject'), reason: approvalReasonSchema }),
  z.strictObject({ decision: z.literal('withdraw') }),
]);
export type ApprovalDecision = z.infer<typeof approvalDecisionSchema>;

/** The answer of a decision: the request as it now stands. */
export const approvalDecidedSchema = z.object({
  approval: approvalViewSchema,
  result: z.optional(z.unknown()),
});

/** The permission each action's route asks (an approver holds it too): for the start warning. */
export const approvalPermission = {
  delete: 'user-groups:delete',
  'bulk-rotate': 'user-groups:rotate',
  'grant-admin': 'operators:manage',
} as const satisfies Record<ApprovalAction, string>;
