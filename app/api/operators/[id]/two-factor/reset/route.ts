import { resetSecondFactorRoute } from '@/lib/operators/handlers';

export const POST = resetSecondFactorRoute;
