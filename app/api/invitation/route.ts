import { consoleServer } from '@/lib/server';
import { invitationLookupRoute } from '@/lib/server/invitations';

/** Public: whom an invitation link lets in (its secret in the body). */
export const POST = invitationLookupRoute(consoleServer);
