import 'server-only';
import { isAPIError } from 'better-auth/api';
import { checkRequestOrigin } from '@/lib/auth/origin';
import { failureGateOf, signInKeys } from '@/lib/auth/sign-in-limiter';
import { clientAddress } from '@/lib/config/trusted-proxies';
import { consoleRoutes } from '@/lib/console-api/routes';
import { ConsoleError } from '@/lib/console-error';
import {
  acceptInvitationSchema,
  type InvitationDetails,
  invitationLookupSchema,
} from '@/lib/invitations/contract';
import {
  claimInvitation,
  type FoundInvitation,
  findInvitation,
  type InvitationState,
  makeInvitation,
  unclaimInvitation,
} from '@/lib/invitations/store';
import type { InvitationLink, InvitationMail, OperatorSummary } from '@/lib/operators/contract';
import { findOperator, setFirstPassword } from '@/lib/operators/store';
import { type ConsoleServer, operatorFromHeaders } from '@/lib/server';
import { accessErrors } from '@/lib/server/errors';
import { type Guard, requestFrame } from '@/lib/server/frame/frame';
import { type OnRecord, onRecord, writeAudited } from '@/lib/server/frame/writer';
import { parseJson } from '@/lib/server/request-body';
import { withRequestId } from '@/lib/server/request-context';

/**
 * Invitations, the console's side: an admin's new link (on record first), and the two public
 * requests of the /invitation page, which carry the link's secret in their body. Both public
 * requests refuse other sites and count against the sign-in limit (their own bucket); a refused
 * use is on record once per client and window, so nobody can flood the log without an account.
 */

/** The page that accepts a link; the secret rides in the fragment, which no browser sends. */
const INVITATION_PAGE = '/invitation';

/**
 * An invitation as an approver of it is shown it: never its link, which would let them accept it
 * and hold the admin they approved. The link was emailed (SMTP_URL), or the requester or any admin
 * sends a new one from the operators page.
 */
export function withoutLink({ link: _link, ...rest }: InvitationLink): Omit<InvitationLink, 'link'> {
  return rest;
}

/**
 * A new link for the operator (earlier ones void), on record before it exists; with SMTP_URL, it is
 * emailed to them as well. The entry says whether the email went out (never the link): a failed
 * delivery is the admin's to read, not an error, and the link is answered either way.
 */
export async function inviteOperator(
  server: ConsoleServer,
  admin: { id: string; email: string; name?: string },
  requestId: string,
  target: Pick<OperatorSummary, 'id' | 'email' | 'role'>,
  why: 'new operator' | 'sent again, the earlier link voided',
): Promise<InvitationLink> {
  const mailer = server.invitationMailer;
  const detail = `${target.email}: ${why}`;
  return writeAudited(
    server.auditLog,
    {
      action: 'invitation.create',
      operator: { id: admin.id, email: admin.email },
      requestId,
      detail: mailer ? `${detail}; emailing the link` : detail,
    },
    async () => {
      const made = await makeInvitation(
        server.database.db,
        target.id,
        admin.id,
        new Date(server.clock.now()),
      );
      const link = new URL(INVITATION_PAGE, server.config.consoleUrl);
      link.hash = made.secret;
      const mail = mailer
        ? await mailer.send(
            {
              to: target.email,
              link: link.href,
              invitedBy: { name: admin.name ?? admin.email, email: admin.email },
              role: target.role,
              expiresAt: made.expiresAt,
            },
            requestId,
          )
        : null;
      return { link: link.href, expiresAt: made.expiresAt, mail };
    },
    {
      settled: ({ mail }) => ({
        outcome: 'success',
        detail: mail === null ? detail : `${detail}; ${mailOutcome(mail)}`,
      }),
    },
  );
}

/** The entry's words for the email: sent, or why not. */
const mailOutcome = (mail: InvitationMail): string =>
  mail.status === 'sent' ? 'emailed' : `not emailed: ${mail.reason}`;

const refusals: Record<Exclude<InvitationState, 'open'> | 'unknown', string> = {
  unknown: 'This invitation link is not one the console made. Check that you copied all of it.',
  used: 'This invitation has been used already. Sign in with the password you chose.',
  voided: 'This invitation link was replaced or withdrawn. Ask an admin of the console for a new one.',
  expired: 'This invitation link has expired. Ask an admin of the console for a new one.',
};

function refused(state: keyof typeof refusals): ConsoleError {
  return new ConsoleError('not_found', refusals[state]);
}

/** POST /api/invitation: whom a working link lets in. A read: nothing is written but the limiter's count. */
export const invitationLookupRoute = (consoleServer: () => Promise<ConsoleServer>) =>
  requestFrame<unknown, null>(
    { name: consoleRoutes.lookupInvitation.name, guard: publicRequest, server: consoleServer },
    async ({ request, server }) => {
      const { secret } = await parseJson(request, invitationLookupSchema);
      const { invitation, operator } = await openInvitation(server, secret);
      const details: InvitationDetails = {
        email: operator.email,
        role: operator.role,
        expiresAt: invitation.expiresAt,
      };
      return Response.json(details);
    },
  );

/**
 * POST /api/invitation/accept: the invited operator's password is set and they are signed in (the
 * session's cookie set on this answer); the link is used up. On record before it happens.
 */
export const invitationAcceptRoute = (consoleServer: () => Promise<ConsoleServer>) =>
  requestFrame<unknown, null>(
    { name: consoleRoutes.acceptInvitation.name, guard: publicRequest, server: consoleServer },
    async ({ request, server, scope: { requestId } }) => {
      const { secret, password } = await parseJson(request, acceptInvitationSchema);
      if (await operatorFromHeaders(server, request.headers))
        throw new ConsoleError(
          'conflict',
          'You are signed in already: sign out first, then open the link again.',
        );
      const record = onRecord(server, requestId);
      let opened: Awaited<ReturnType<typeof openInvitation>>;
      try {
        opened = await openInvitation(server, secret);
      } catch (error) {
        await recordRefusal(server, request, record, requestId, error);
        throw error;
      }
      const { invitation, operator } = opened;
      // The use on record before it happens, settled with the refusal's code when it does not.
      const failure = await record.change(
        {
          action: 'invitation.use',
          operator: { id: operator.id, email: operator.email },
          requestId,
          detail: operator.email,
        },
        () =>
          useInvitation(server, invitation, operator, secret, password).then(
            () => null,
            (error: unknown) => ({ error }),
          ),
        (failed) =>
          failed === null ? 'success' : failed.error instanceof ConsoleError ? failed.error.code : 'internal',
      );
      if (failure) throw failure.error;
      return signIn(server, request, requestId, operator.email, password);
    },
  );

/** The link used up and the operator's first password set; the link open again when that fails. */
async function useInvitation(
  server: ConsoleServer,
  invitation: FoundInvitation,
  operator: OperatorSummary,
  secret: string,
  password: string,
): Promise<void> {
  if (!(await claimInvitation(server.database.db, invitation.id, new Date(server.clock.now())))) {
    // Another request used it a moment ago, or it was voided or expired meanwhile.
    const state =
      (await findInvitation(server.database.db, secret, new Date(server.clock.now())))?.state ?? 'voided';
    throw refused(state === 'open' ? 'used' : state);
  }
  try {
    await setFirstPassword(server, operator.id, password);
  } catch (error) {
    await unclaimInvitation(server.database.db, invitation.id);
    throw error;
  }
}

/** The public routes' guard: same origin only, and within the sign-in limit (per client, a bucket of its own). */
const publicRequest: Guard<null> = async (server, request) => {
  if (checkRequestOrigin(request, server.config.trustedOrigins) === 'cross-site')
    return { refused: accessErrors.crossSite(), actor: null };
  const client = clientAddress(request.headers, server.config.trustedProxies);
  const keys = signInKeys(null, client ?? 'unknown').map((key) => `invitation:${key}`);
  const verdict = (await server.signInLimiter?.attempt(keys)) ?? { allowed: true };
  if (!verdict.allowed) {
    server.metrics.rateLimitRefusals.inc({ limit: 'sign-in' });
    return {
      refused: new ConsoleError(
        'rate_limited',
        `Too many attempts: retry in ${verdict.retryAfterSeconds} s.`,
        {
          retryAfterSeconds: verdict.retryAfterSeconds,
        },
      ),
      actor: null,
    };
  }
  return { actor: null };
};

/** The invitation the secret opens and its operator, or the refusal in the console's words. */
async function openInvitation(
  server: ConsoleServer,
  secret: string,
): Promise<{ invitation: FoundInvitation; operator: OperatorSummary }> {
  const invitation = await findInvitation(server.database.db, secret, new Date(server.clock.now()));
  if (!invitation) throw refused('unknown');
  if (invitation.state !== 'open') throw refused(invitation.state);
  const operator = await findOperator(server, invitation.userId);
  // Removed, disabled, or in already (a password, or SSO): the link has nothing left to do.
  if (!operator || operator.disabled) throw refused('voided');
  if (operator.invitationExpiresAt === null) throw refused('used');
  return { invitation, operator };
}

/** A refused use, on record once per client and window (anyone can send a wrong link). */
async function recordRefusal(
  server: ConsoleServer,
  request: Request,
  record: OnRecord,
  requestId: string,
  error: unknown,
): Promise<void> {
  if (!(error instanceof ConsoleError)) return;
  const client = clientAddress(request.headers, server.config.trustedProxies) ?? 'unknown';
  if (!(await failureGateOf(server.signInLimiter).first(`invitation:${client}`))) return;
  await record.outcome({
    action: 'invitation.use',
    operator: null,
    outcome: error.code,
    requestId,
    detail: `${error.message} Further refusals from this client are recorded once per window.`,
  });
}

/** Signs the operator in with the password just set, as the sign-in page would (on record there). */
async function signIn(
  server: ConsoleServer,
  request: Request,
  requestId: string,
  email: string,
  password: string,
): Promise<Response> {
  try {
    const { headers } = await withRequestId(requestId, () =>
      server.auth.api.signInEmail({
        body: { email, password },
        headers: request.headers,
        returnHeaders: true,
      }),
    );
    const answer = new Headers({ 'content-type': 'application/json' });
    for (const cookie of headers.getSetCookie()) answer.append('set-cookie', cookie);
    return new Response(JSON.stringify({ email }), { status: 200, headers: answer });
  } catch (error) {
    if (!isAPIError(error)) throw error;
    // The password is set; only the sign-in failed (the audit log, say): the sign-in page works.
    throw new ConsoleError(
      error.statusCode === 503 ? 'audit_unavailable' : 'internal',
      'Your password is set, but you could not be signed in: sign in on the sign-in page.',
    );
  }
}
