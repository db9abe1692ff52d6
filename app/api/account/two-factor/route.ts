import { startTwoFactorRoute } from '@/lib/two-factor/handlers';

export const POST = startTwoFactorRoute;
