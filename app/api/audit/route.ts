import { readAuditRoute } from '@/lib/audit/handlers';

export const GET = readAuditRoute;
