import { rotateRoute } from '@/lib/user-groups/handlers';

export const POST = rotateRoute;
