import { revokeInvitationRoute } from '@/lib/invitations/handlers';

export const POST = revokeInvitationRoute;
