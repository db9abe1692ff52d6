import { endOperatorSessionsRoute } from '@/lib/operators/handlers';

export const POST = endOperatorSessionsRoute;
