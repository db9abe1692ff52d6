/**
 * How many approval requests wait for the reader: the header's count, on every console page, so its
 * definition stands apart from the approvals' other routes and their schemas (page weight). Plain
 * module: the browser imports it.
 */
import * as z from 'zod/mini';
import { defineRoute } from '@/lib/console-api/define-route';

export const approvalWaitingRoutes = {
  countApprovals: defineRoute({
    name: 'approvals.waiting',
    method: 'GET',
    path: '/api/approvals/waiting',
    permission: 'console:use',
    answer: z.object({ waiting: z.number() }),
  }),
};
