/**
 * The audit log, read a page at a time and exported. Their console routes' definitions
 * (lib/console-api/define-route.ts), gathered with every feature's in lib/console-api/routes.ts. Plain
 * module: the browser imports it.
 */

import { auditPageSchema } from '@/lib/audit/contract';
import { defineRoute } from '@/lib/console-api/define-route';

export const auditRoutes = {
  /** One page of the audit log, filtered as the audit page's query string. */
  readAudit: defineRoute({
    audits: ['audit.read'],
    name: 'audit.list',
    method: 'GET',
    path: '/api/audit',
    permission: 'console:use',
    answer: auditPageSchema,
  }),
  /** Every row the filters select (not just one page), as CSV. */
  exportAudit: defineRoute({
    audits: ['audit.export'],
    name: 'audit.export',
    method: 'GET',
    path: '/api/audit/export',
    permission: 'console:use',
  }),
};
