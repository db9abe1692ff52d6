import { createOperatorRoute, listOperatorsRoute } from '@/lib/operators/handlers';

export const GET = listOperatorsRoute;
export const POST = createOperatorRoute;
