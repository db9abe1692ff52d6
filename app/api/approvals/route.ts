import { listApprovalsRoute } from '@/lib/approvals/handlers';

export const GET = listApprovalsRoute;
