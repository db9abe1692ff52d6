/**
 * Every console route, defined once: its method, path, permission, body and answer schemas. The
 * server's handler wrapper (lib/server/route.ts) reads the permission and the body schema from
 * here, the browser's client (lib/browser-client/console-client.ts) the method, the path and the answer schema, and the
 * route access table of the e2e sweep the permission: a path, a schema or a permission is written
 * once, and the compiler finds every caller. Plain module: the browser imports it.
 */
import * as z from 'zod/mini';
import { auditPageSchema } from '@/lib/audit/contract';
import { directoryPageSchema } from '@/lib/directory/contract';
import {
  acceptedInvitationSchema,
  acceptInvitationSchema,
  invitationDetailsSchema,
  invitationLookupSchema,
} from '@/lib/invitations/contract';
import {
  createGetOrCreateJobSchema,
  createRotateJobSchema,
  JOB_BODY_MAX_BYTES,
  jobActionSchema,
  jobViewSchema,
} from '@/lib/jobs/contract';
import {
  createOperatorResultSchema,
  createOperatorSchema,
  invitationLinkSchema,
  operatorSummarySchema,
  updateOperatorResultSchema,
  updateOperatorSchema,
} from '@/lib/operators/contract';
import {
  addedPasskeySchema,
  addPasskeySchema,
  newPasskeySchema,
  passkeyListSchema,
  webAuthnOptionsSchema,
} from '@/lib/passkeys/contract';
import type { Permission } from '@/lib/roles';
import { endedSessionsSchema, endSessionsSchema, sessionListSchema } from '@/lib/sessions/contract';
import { identifyTokenSchema, tokenIdentitySchema } from '@/lib/tokens/contract';
import {
  backupCodesSchema,
  confirmEnrolmentSchema,
  doneSchema,
  enrolmentSchema,
  passwordConfirmationSchema,
  stepUpResultSchema,
  stepUpSchema,
} from '@/lib/two-factor/contract';
import { upstreamStatusPageSchema } from '@/lib/upstream-status/contract';
import {
  deleteBodySchema,
  deleteResultSchema,
  getOrCreateBodySchema,
  getOrCreateResultSchema,
  rotateBodySchema,
  rotateResultSchema,
  showTokenBodySchema,
  showTokenResultSchema,
} from '@/lib/user-groups/contract';

type RouteMethod = 'GET' | 'POST' | 'PATCH';

/** `public`: anyone, signed in or not (accepting an invitation); its handler guards itself. */
type RoutePermission = Permission | 'public';

export interface ConsoleRouteDefinition<
  Path extends string = string,
  Body = unknown,
  Answer = unknown,
  Access extends RoutePermission = RoutePermission,
> {
  /** The request's name in the log. */
  name: string;
  method: RouteMethod;
  /** As under app/: `/api/jobs/[id]`. */
  path: Path;
  permission: Access;
  /** The body's schema, the same the form uses; without it the body is not read. */
  body?: z.core.$ZodType<Body>;
  /** The answer's schema; without it the route answers a file (CSV), which the browser saves. */
  answer?: z.core.$ZodType<Answer>;
  /** The largest body the route reads; default MAX_BODY_BYTES (1 MiB). */
  maxBodyBytes?: number;
  /**
   * The action needs a recent authentication (lib/two-factor/step-up.ts), which the route frame
   * enforces from here; the browser's client then asks for one and sends the request again.
   * - `in-production`: in Customer only: the environment the URL's `[environment]` segment names,
   *   or, for a job's routes (`/api/jobs/[id]`), the job's own (the route frame reads it).
   * - `always`: in every environment. Changes to who may do what (operators, roles, invitations,
   *   another's second factor or sessions): a new admin could otherwise read Customer tokens at once.
   * - `own-account`: in every environment, for a change to one's own ways in (a passkey removed).
   */
  stepUp?: StepUp | ((body: Body) => StepUp | null);
  /**
   * Reachable before the session's second factor is settled (lib/two-factor/step-up.ts):
   * - `to-enrol`: by an operator who must still enrol one (the enrolment itself), never by a session
   *   that must confirm the one it has: a password alone must not add a second factor of its own.
   * - `to-confirm`: by both (confirming it, the step-up).
   */
  beforeSecondFactor?: 'to-enrol' | 'to-confirm';
}

/** Where an action needs a recent authentication (ConsoleRouteDefinition's `stepUp`). */
export type StepUp = 'in-production' | 'always' | 'own-account';

type ParamNames<Path extends string> = Path extends `${string}[${infer Name}]${infer Rest}`
  ? Name | ParamNames<Rest>
  : never;

/** `/api/jobs/[id]` → `{ id: string }`. */
export type PathParams<Path extends string> = { [Name in ParamNames<Path>]: string };

function defineRoute<
  const Path extends string,
  Body = undefined,
  Answer = Response,
  const Access extends RoutePermission = Permission,
>(
  route: ConsoleRouteDefinition<Path, Body, Answer, Access>,
): ConsoleRouteDefinition<Path, Body, Answer, Access> {
  return route;
}

/** The URL of a route, its `[name]` segments filled in (encoded). */
export function routePath<Path extends string>(
  route: Pick<ConsoleRouteDefinition<Path>, 'path'>,
  params: PathParams<Path>,
): string {
  return route.path.replace(/\[(\w+)\]/g, (_, name: string) =>
    encodeURIComponent((params as Record<string, string>)[name] ?? ''),
  );
}

export const consoleRoutes = {
  directorySearch: defineRoute({
    name: 'directory.search',
    method: 'GET',
    path: '/api/user-groups/[environment]',
    permission: 'console:use',
    answer: directoryPageSchema,
  }),
  getOrCreate: defineRoute({
    name: 'get-or-create',
    method: 'POST',
    path: '/api/user-groups/[environment]/get-or-create',
    permission: 'user-groups:get-or-create',
    body: getOrCreateBodySchema,
    answer: getOrCreateResultSchema,
    stepUp: 'in-production',
  }),
  /**
   * A look at a group's current token, which never creates the group: a get-or-create of the id
   * alone, undone at once (deleted again) when it made a new group.
   */
  showToken: defineRoute({
    name: 'show-token',
    method: 'POST',
    path: '/api/user-groups/[environment]/show-token',
    permission: 'user-groups:reveal-token',
    body: showTokenBodySchema,
    answer: showTokenResultSchema,
    stepUp: 'in-production',
  }),
  rotate: defineRoute({
    name: 'rotate',
    method: 'POST',
    path: '/api/user-groups/[environment]/rotate',
    permission: 'user-groups:rotate',
    body: rotateBodySchema,
    answer: rotateResultSchema,
    stepUp: 'in-production',
  }),
  delete: defineRoute({
    name: 'delete',
    method: 'POST',
    path: '/api/user-groups/[environment]/delete',
    permission: 'user-groups:delete',
    body: deleteBodySchema,
    answer: deleteResultSchema,
    stepUp: 'in-production',
  }),
  createGetOrCreateJob: defineRoute({
    name: 'jobs.create-get-or-create',
    method: 'POST',
    path: '/api/user-groups/[environment]/jobs/get-or-create',
    permission: 'user-groups:get-or-create',
    body: createGetOrCreateJobSchema,
    answer: jobViewSchema,
    maxBodyBytes: JOB_BODY_MAX_BYTES,
  }),
  createRotateJob: defineRoute({
    name: 'jobs.create-rotate',
    method: 'POST',
    path: '/api/user-groups/[environment]/jobs/rotate',
    permission: 'user-groups:rotate',
    body: createRotateJobSchema,
    answer: jobViewSchema,
  }),
  readJob: defineRoute({
    name: 'jobs.read',
    method: 'GET',
    path: '/api/jobs/[id]',
    permission: 'console:use',
    answer: jobViewSchema,
  }),
  /** Start, pause, resume or cancel; the job's kind asks for more (lib/jobs/server.ts). */
  steerJob: defineRoute({
    name: 'jobs.steer',
    method: 'POST',
    path: '/api/jobs/[id]',
    permission: 'user-groups:get-or-create',
    body: jobActionSchema,
    answer: jobViewSchema,
    // Sending to production needs a recent authentication; pausing and cancelling never wait for one.
    stepUp: (body) => (body.action === 'start' || body.action === 'resume' ? 'in-production' : null),
  }),
  /** Every row's outcome as CSV, no token: a GET, which a link may fetch. */
  jobResult: defineRoute({
    name: 'jobs.result',
    method: 'GET',
    path: '/api/jobs/[id]/result',
    permission: 'console:use',
  }),
  /**
   * A rotation job's groups as CSV (ids, names, token fingerprints; never a token): a GET, like the
   * result. It says whose each pasted token is: for those who may rotate, as Identify is for those
   * who may see tokens.
   */
  jobPreview: defineRoute({
    name: 'jobs.preview',
    method: 'GET',
    path: '/api/jobs/[id]/preview',
    permission: 'user-groups:rotate',
  }),
  /** The result with the tokens, handed out once and then erased: a POST, so no link can take them. */
  jobTokens: defineRoute({
    name: 'jobs.tokens',
    method: 'POST',
    path: '/api/jobs/[id]/tokens',
    permission: 'user-groups:reveal-token',
    // In the job's environment, which the route frame reads from the job.
    stepUp: 'in-production',
  }),
  /** How each environment's User Group Service answered the console's last probe (the header's status). */
  upstreamStatus: defineRoute({
    name: 'upstream.status',
    method: 'GET',
    path: '/api/upstream-status',
    permission: 'console:use',
    answer: upstreamStatusPageSchema,
  }),
  listOperators: defineRoute({
    name: 'operators.list',
    method: 'GET',
    path: '/api/operators',
    permission: 'operators:manage',
    answer: z.object({ operators: z.array(operatorSummarySchema) }),
  }),
  createOperator: defineRoute({
    name: 'operators.create',
    method: 'POST',
    path: '/api/operators',
    permission: 'operators:manage',
    stepUp: 'always',
    body: createOperatorSchema,
    answer: createOperatorResultSchema,
  }),
  /** `{ role }` or `{ disabled }`. */
  updateOperator: defineRoute({
    name: 'operators.update',
    method: 'PATCH',
    path: '/api/operators/[id]',
    permission: 'operators:manage',
    stepUp: 'always',
    body: updateOperatorSchema,
    answer: updateOperatorResultSchema,
  }),
  /** A new invitation link for an operator not yet in; their earlier link stops working at once. */
  resendInvitation: defineRoute({
    name: 'operators.invitation.resend',
    method: 'POST',
    path: '/api/operators/[id]/invitation',
    permission: 'operators:manage',
    stepUp: 'always',
    answer: invitationLinkSchema,
  }),
  /** Withdraws an invitation not yet accepted: the link stops working and the operator is removed. */
  revokeInvitation: defineRoute({
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
    name: 'invitation.accept',
    method: 'POST',
    path: '/api/invitation/accept',
    permission: 'public',
    body: acceptInvitationSchema,
    answer: acceptedInvitationSchema,
  }),
  /** An admin turns off an operator's second factor (a lost phone): they enrol again. */
  resetSecondFactor: defineRoute({
    name: 'operators.reset-two-factor',
    method: 'POST',
    path: '/api/operators/[id]/two-factor/reset',
    permission: 'operators:manage',
    stepUp: 'always',
    answer: doneSchema,
  }),
  /** Enrolling an authenticator app, step one: the password, then the secret and backup codes back. */
  startTwoFactor: defineRoute({
    name: 'account.two-factor.start',
    method: 'POST',
    path: '/api/account/two-factor',
    permission: 'console:use',
    beforeSecondFactor: 'to-enrol',
    body: passwordConfirmationSchema,
    answer: enrolmentSchema,
  }),
  /** Step two: the app's first code turns the second factor on. */
  confirmTwoFactor: defineRoute({
    name: 'account.two-factor.confirm',
    method: 'POST',
    path: '/api/account/two-factor/confirm',
    permission: 'console:use',
    beforeSecondFactor: 'to-enrol',
    body: confirmEnrolmentSchema,
    answer: doneSchema,
  }),
  /** Ten new backup codes; the old ones stop working. */
  newBackupCodes: defineRoute({
    name: 'account.two-factor.backup-codes',
    method: 'POST',
    path: '/api/account/two-factor/backup-codes',
    permission: 'console:use',
    body: passwordConfirmationSchema,
    answer: backupCodesSchema,
  }),
  removeTwoFactor: defineRoute({
    name: 'account.two-factor.remove',
    method: 'POST',
    path: '/api/account/two-factor/remove',
    permission: 'console:use',
    body: passwordConfirmationSchema,
    answer: doneSchema,
  }),
  /** The operator's passkeys (name, when added). */
  listPasskeys: defineRoute({
    name: 'account.passkeys',
    method: 'GET',
    path: '/api/account/passkeys',
    permission: 'console:use',
    beforeSecondFactor: 'to-enrol',
    answer: passkeyListSchema,
  }),
  /**
   * Adding a passkey, step one: the options for the browser's authenticator (and a challenge
   * cookie). Needs a recent authentication (the step-up window), as a new way in.
   */
  startPasskey: defineRoute({
    name: 'account.passkeys.start',
    method: 'POST',
    path: '/api/account/passkeys/options',
    permission: 'console:use',
    beforeSecondFactor: 'to-enrol',
    body: newPasskeySchema,
    answer: webAuthnOptionsSchema,
  }),
  /** Step two: the authenticator's answer; the passkey is kept under its name. */
  addPasskey: defineRoute({
    name: 'account.passkeys.add',
    method: 'POST',
    path: '/api/account/passkeys',
    permission: 'console:use',
    beforeSecondFactor: 'to-enrol',
    body: addPasskeySchema,
    answer: addedPasskeySchema,
  }),
  removePasskey: defineRoute({
    name: 'account.passkeys.remove',
    method: 'POST',
    path: '/api/account/passkeys/[id]/remove',
    permission: 'console:use',
    answer: doneSchema,
    stepUp: 'own-account',
  }),
  /** The operator's own open sessions. */
  listSessions: defineRoute({
    name: 'account.sessions',
    method: 'GET',
    path: '/api/account/sessions',
    permission: 'console:use',
    beforeSecondFactor: 'to-enrol',
    answer: sessionListSchema,
  }),
  /** Ends one of them, or every other one: those browsers are signed out on their next request. */
  endSessions: defineRoute({
    name: 'account.sessions.end',
    method: 'POST',
    path: '/api/account/sessions/end',
    permission: 'console:use',
    beforeSecondFactor: 'to-enrol',
    body: endSessionsSchema,
    answer: endedSessionsSchema,
  }),
  /** An admin ends every session of an operator. */
  endOperatorSessions: defineRoute({
    name: 'operators.end-sessions',
    method: 'POST',
    path: '/api/operators/[id]/sessions/end',
    permission: 'operators:manage',
    stepUp: 'always',
    answer: endedSessionsSchema,
  }),
  /** Confirming who you are again, for production tokens and changes (lib/two-factor/step-up.ts). */
  stepUp: defineRoute({
    name: 'step-up',
    method: 'POST',
    path: '/api/step-up',
    permission: 'console:use',
    // Also the way an SSO session proves its second factor when the policy asks (lib/two-factor/step-up.ts).
    beforeSecondFactor: 'to-confirm',
    body: stepUpSchema,
    answer: stepUpResultSchema,
  }),
  /** A step-up with a passkey, step one: the challenge for the operator's own passkeys. */
  stepUpPasskey: defineRoute({
    name: 'step-up.passkey',
    method: 'POST',
    path: '/api/step-up/passkey',
    permission: 'console:use',
    // Also the passkey-only operator's second step after a password sign-in.
    beforeSecondFactor: 'to-confirm',
    answer: webAuthnOptionsSchema,
  }),
  /** Whose token is this: the pasted token in the body (never in a URL), groups and times back. */
  identifyToken: defineRoute({
    name: 'token.identify',
    method: 'POST',
    path: '/api/tokens/identify',
    permission: 'user-groups:reveal-token',
    body: identifyTokenSchema,
    answer: tokenIdentitySchema,
  }),
  /** One page of the audit log, filtered as the audit page's query string. */
  readAudit: defineRoute({
    name: 'audit.list',
    method: 'GET',
    path: '/api/audit',
    permission: 'console:use',
    answer: auditPageSchema,
  }),
  /** Every row the filters select (not just one page), as CSV. */
  exportAudit: defineRoute({
    name: 'audit.export',
    method: 'GET',
    path: '/api/audit/export',
    permission: 'console:use',
  }),
};
