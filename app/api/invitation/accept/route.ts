import { invitationAcceptRoute } from '@/lib/invitations/server';
import { consoleServer } from '@/lib/server';

/** Public: the invited operator chooses their password and is signed in. */
export const POST = invitationAcceptRoute(consoleServer);
