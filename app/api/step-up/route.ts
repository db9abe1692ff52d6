import { stepUpRoute } from '@/lib/two-factor/handlers';

export const POST = stepUpRoute;
