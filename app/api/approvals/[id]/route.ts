import { readApprovalRoute } from '@/lib/approvals/handlers';

export const GET = readApprovalRoute;
