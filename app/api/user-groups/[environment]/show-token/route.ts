import { showTokenRoute } from '@/lib/user-groups/handlers';

export const POST = showTokenRoute;
