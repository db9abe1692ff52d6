import { handleInvitationLookup } from '@/lib/server/invitations';

/** Public: whom an invitation link lets in (its secret in the body). */
export const POST = (request: Request) => handleInvitationLookup(request);
