import { removePasskeyRoute } from '@/lib/passkeys/handlers';

export const POST = removePasskeyRoute;
