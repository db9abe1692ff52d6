import { countApprovalsRoute } from '@/lib/approvals/handlers';

export const GET = countApprovalsRoute;
