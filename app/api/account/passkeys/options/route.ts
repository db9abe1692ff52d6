import { startPasskeyRoute } from '@/lib/passkeys/handlers';

export const POST = startPasskeyRoute;
