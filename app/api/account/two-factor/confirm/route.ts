import { confirmTwoFactorRoute } from '@/lib/two-factor/handlers';

export const POST = confirmTwoFactorRoute;
