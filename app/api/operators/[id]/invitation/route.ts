import { resendInvitationRoute } from '@/lib/invitations/handlers';

export const POST = resendInvitationRoute;
