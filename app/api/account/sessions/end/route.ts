import { endSessionsRoute } from '@/lib/sessions/handlers';

export const POST = endSessionsRoute;
