import { consoleServer } from '@/lib/server';
import { invitationAcceptRoute } from '@/lib/server/invitations';

/** Public: the invited operator chooses their password and is signed in. */
export const POST = invitationAcceptRoute(consoleServer);
