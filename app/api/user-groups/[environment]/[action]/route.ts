import { routeTable } from '@/lib/server/route-table';
import * as handlers from '@/lib/user-groups/handlers';

/** Every route of lib/user-groups/handlers.ts without a file of its own: a new one needs none. */
export const POST = routeTable('/api/user-groups/[environment]/[action]', 'POST', handlers);
