/**
 * The audit chain's console route: an admin verifies the chain from the audit page. Plain module:
 * the browser imports it.
 */
import { chainReportSchema } from '@/lib/audit-chain/contract';
import { defineRoute } from '@/lib/console-api/define-route';

export const auditChainRoutes = {
  /** Recomputes the chain as `npm run audit -- verify` does; on record, changes nothing. */
  verifyAuditChain: defineRoute({
    audits: ['audit.verify'],
    name: 'audit.verify',
    method: 'POST',
    path: '/api/audit/verify',
    permission: 'audit:verify',
    answer: chainReportSchema,
  }),
};
