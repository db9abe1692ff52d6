import { removeTwoFactorRoute } from '@/lib/two-factor/handlers';

export const POST = removeTwoFactorRoute;
