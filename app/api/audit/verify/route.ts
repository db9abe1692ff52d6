import { verifyAuditChainRoute } from '@/lib/audit-chain/handlers';

export const POST = verifyAuditChainRoute;
