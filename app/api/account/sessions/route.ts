import { listSessionsRoute } from '@/lib/sessions/handlers';

export const GET = listSessionsRoute;
