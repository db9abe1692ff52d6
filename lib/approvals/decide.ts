/**
 * The browser's way to decide a request: sent to the action's own route (`?approval=<id>`), so that
 * the server guards it with that route's permission and carries out the very action. Plain module.
 */
import { callRoute } from '@/lib/browser-client/console-client';
import { defineRoute } from '@/lib/console-api/define-route';
import {
  type ApprovalDecision,
  type ApprovalView,
  approvalDecidedSchema,
  approvalDecisionSchema,
} from './contract';

export function decideApproval(
  approval: Pick<ApprovalView, 'id' | 'method' | 'path'>,
  decision: ApprovalDecision,
) {
  const route = defineRoute({
    name: 'approvals.decide',
    method: approval.method,
    path: approval.path,
    permission: 'console:use',
    body: approvalDecisionSchema,
    answer: approvalDecidedSchema,
  });
  return callRoute(route, { body: decision, query: `?approval=${encodeURIComponent(approval.id)}` });
}
