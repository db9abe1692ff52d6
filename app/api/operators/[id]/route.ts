import { updateOperatorRoute } from '@/lib/operators/handlers';

export const PATCH = updateOperatorRoute;
