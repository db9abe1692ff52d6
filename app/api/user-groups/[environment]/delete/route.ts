import { deleteRoute } from '@/lib/user-groups/handlers';

export const POST = deleteRoute;
