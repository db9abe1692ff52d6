import { exportAuditRoute } from '@/lib/audit/handlers';

export const GET = exportAuditRoute;
