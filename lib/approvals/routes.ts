/**
 * Two-person approval: the requests one may decide or asked for, and one request followed by its
 * requester. Decisions go to the action's own route (`?approval=<id>`, lib/approvals/frame.ts).
 * Their console routes' definitions, gathered with every feature's in lib/console-api/routes.ts.
 * Plain module: the browser imports it.
 */
import { approvalListSchema, approvalPendingSchema } from '@/lib/approvals/contract';
import { defineRoute } from '@/lib/console-api/define-route';

export const approvalRoutes = {
  listApprovals: defineRoute({
    name: 'approvals.list',
    method: 'GET',
    path: '/api/approvals',
    permission: 'console:use',
    answer: approvalListSchema,
  }),
  readApproval: defineRoute({
    name: 'approvals.read',
    method: 'GET',
    path: '/api/approvals/[id]',
    permission: 'console:use',
    answer: approvalPendingSchema,
  }),
};
