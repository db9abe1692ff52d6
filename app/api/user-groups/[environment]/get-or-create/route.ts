import { getOrCreateRoute } from '@/lib/user-groups/handlers';

export const POST = getOrCreateRoute;
