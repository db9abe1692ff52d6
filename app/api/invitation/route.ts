import { invitationLookupRoute } from '@/lib/invitations/server';
import { consoleServer } from '@/lib/server';

/** Public: whom an invitation link lets in (its secret in the body). */
export const POST = invitationLookupRoute(consoleServer);
