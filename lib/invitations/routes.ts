/**
 * Invitations: an admin sends one again or withdraws it; the invited person looks it up and accepts it. Their
 * console routes' definitions (lib/console-api/define-route.ts), gathered with every feature's in
 * lib/console-api/routes.ts. Plain module: the browser imports it.
 */
import * as z from 'zod/mini';
import { defineRoute } from '@/lib/console-api/define-route';
import {
  acceptedInvitationSchema,
  acceptInvitationSchema,
  invitationDetailsSchema,
  invitationLookupSchema,
} from '@/lib/invitations/contract';
import { invitationLinkSchema } from '@/lib/operators/contract';
import { doneSchema } from '@/lib/two-factor/contract';

export const invitationRoutes = {
  /** A new invitation link for an operator not yet in; their earlier link stops working at once. */
  resendInvitation: defineRoute({
    audits: ['invitation.void', 'invitation.create'],
    name: 'operators.invitation.resend',
    method: 'POST',
    path: '/api/operators/[id]/invitation',
    permission: 'operators:manage',
    stepUp: 'always',
    // Nothing of its own; where the policy covers it (an admin's link), the approval's reason.
    body: z.strictObject({}),
    answer: invitationLinkSchema,
  }),
  /** Withdraws an invitation not yet accepted: the link stops working and the operator is removed. */
  revokeInvitation: defineRoute({
    audits: ['invitation.void'],
    name: 'operators.invitation.revoke',
    method: 'POST',
    path: '/api/operators/[id]/invitation/revoke',
    permission: 'operators:manage',
    stepUp: 'always',
    answer: doneSchema,
  }),
  /** Whom an invitation link lets in (the page asks before showing the password form): public. */
  lookupInvitation: defineRoute({
    name: 'invitation.lookup',
    method: 'POST',
    path: '/api/invitation',
    permission: 'public',
    body: invitationLookupSchema,
    answer: invitationDetailsSchema,
  }),
  /** The invited person chooses their password and is signed in; the link is used up: public. */
  acceptInvitation: defineRoute({
    audits: ['invitation.use'],
    name: 'invitation.accept',
    method: 'POST',
    path: '/api/invitation/accept',
    permission: 'public',
    body: acceptInvitationSchema,
    answer: acceptedInvitationSchema,
  }),
};
