import { addPasskeyRoute, listPasskeysRoute } from '@/lib/passkeys/handlers';

export const GET = listPasskeysRoute;
export const POST = addPasskeyRoute;
