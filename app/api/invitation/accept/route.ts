import { handleInvitationAccept } from '@/lib/server/invitations';

/** Public: the invited operator chooses their password and is signed in. */
export const POST = (request: Request) => handleInvitationAccept(request);
