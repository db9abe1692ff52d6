import { stepUpPasskeyRoute } from '@/lib/two-factor/handlers';

export const POST = stepUpPasskeyRoute;
