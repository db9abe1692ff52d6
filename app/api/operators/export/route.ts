import { exportOperatorsRoute } from '@/lib/operators/handlers';

export const GET = exportOperatorsRoute;
