import 'server-only';
import { AUTH_BASE_PATH, SIGN_IN_NOT_RECORDED } from '@/lib/auth/options';
import { checkRequestOrigin } from '@/lib/auth/origin';
import { passkeyOwner } from '@/lib/auth/passkeys';
import { failureGateOf, signInKeys, ssoCallbackKey } from '@/lib/auth/sign-in-limiter';
import { claimCode, releaseCode } from '@/lib/auth/used-codes';
import { clientAddress } from '@/lib/config/trusted-proxies';
import { ConsoleError } from '@/lib/console-error';
import type { ConsoleDb } from '@/lib/db/console-database';
import { consoleMetrics } from '@/lib/metrics/console-metrics';
import { authRefusal, inConsoleWords } from './auth-answers';
import { accessErrors, auditUnavailable } from './errors';
import { type ConsoleServer, type Operator, operatorFromHeaders } from './index';
import { limitProof, strike } from './proofs';
import { readBodyText, readJson } from './request-body';
import { carriedFrom, replacingSession, withRequestId } from './request-context';
import { handleRequest } from './route';
import { secondFactorDue, secondFactorRequired } from './step-up';

/**
 * better-auth's endpoints the console uses; every other one (sign-up, the admin plugin's HTTP
 * endpoints, account linking, …) answers 404. Operator changes go through /api/operators instead.
 * get-session stays closed too: its answer carries the session token, which the HttpOnly cookie
 * keeps from page scripts (the server reads sessions itself).
 */
const allowedEndpoints: ReadonlyArray<{ method: 'GET' | 'POST'; path: RegExp; kind: EndpointKind }> = [
  { method: 'POST', path: /^\/sign-in\/email$/, kind: 'sign-in' },
  { method: 'POST', path: /^\/sign-in\/social$/, kind: 'sso-start' },
  { method: 'GET', path: /^\/callback\/[\w-]+$/, kind: 'sso-callback' },
  { method: 'POST', path: /^\/callback\/[\w-]+$/, kind: 'sso-callback' },
  { method: 'POST', path: /^\/sign-out$/, kind: 'sign-out' },
  { method: 'POST', path: /^\/change-password$/, kind: 'change-password' },
  // The second step of a sign-in with a second factor (its challenge cookie set by the first).
  { method: 'POST', path: /^\/two-factor\/verify-(totp|backup-code)$/, kind: 'second-factor' },
  // A sign-in with a passkey: its challenge (kept under a random id in a signed cookie), then the
  // authenticator's answer. Adding and removing passkeys go through /api/account/passkeys.
  { method: 'GET', path: /^\/passkey\/generate-authenticate-options$/, kind: 'passkey-options' },
  { method: 'POST', path: /^\/passkey\/verify-authentication$/, kind: 'passkey-sign-in' },
];

type EndpointKind =
  | 'sign-in'
  | 'sso-start'
  | 'sso-callback'
  | 'sign-out'
  | 'change-password'
  | 'second-factor'
  | 'passkey-options'
  | 'passkey-sign-in';

/** Endpoints whose body better-auth reads as JSON or as a form: the console takes JSON only. */
const jsonOnly = new Set<EndpointKind>([
  'sign-in',
  'sso-start',
  'change-password',
  'second-factor',
  'passkey-sign-in',
]);
/**
 * Counted against the sign-in limit (the email and the client). A password change is a signed-in
 * operator's proof instead, counted per session and operator (lib/server/proofs.ts): strangers'
 * sign-ins must not lock an operator out of it.
 */
const limited = new Set<EndpointKind>(['sign-in', 'sso-start', 'second-factor', 'passkey-sign-in']);

/**
 * The /api/auth/[...all] handler: better-auth behind an allow-list, a limiter and the audit log,
 * on the server its route hands it (asked for inside the frame, so that a server that cannot start
 * answers in the documented error shape).
 */
export function authRoute(consoleServer: () => Promise<ConsoleServer>) {
  return (request: Request): Promise<Response> => {
    const path = new URL(request.url).pathname.slice(AUTH_BASE_PATH.length) || '/';
    const endpoint = allowedEndpoints.find(
      (candidate) => candidate.method === request.method && candidate.path.test(path),
    );
    return handleRequest(`auth ${endpoint?.kind ?? 'refused'}`, async ({ requestId }) => {
      if (!endpoint) throw noSuchEndpoint();
      return handleEndpoint(await consoleServer(), request, endpoint.kind, path, requestId);
    });
  };
}

const noSuchEndpoint = () => new ConsoleError('not_found', 'No such sign-in endpoint.');

async function handleEndpoint(
  server: ConsoleServer,
  request: Request,
  kind: EndpointKind,
  path: string,
  requestId: string,
): Promise<Response> {
  const { auth, config, database, auditLog } = server;
  // Only the configured provider has a callback (with SSO off, none): nobody reaches better-auth,
  // its error redirect or the audit log through another.
  if (kind === 'sso-callback' && (!config.oidc || path !== `/callback/${config.oidc.providerId}`)) {
    throw noSuchEndpoint();
  }
  // The IdP posts its answer back from its own origin (form_post); state and PKCE protect it.
  if (kind !== 'sso-callback' && checkRequestOrigin(request, config.trustedOrigins) === 'cross-site') {
    throw accessErrors.crossSite();
  }

  const body = await readAuthBody(request, kind);
  // The second step is for someone signing in, not signed in: a signed-in operator's code here
  // would turn on a pending enrolment behind the account page's back.
  if (kind === 'second-factor' && (await operatorFromHeaders(server, request.headers)))
    throw new ConsoleError('conflict', 'You are signed in already.');
  const challenged =
    kind === 'second-factor' ? await challengedOperator(request, database, config.secureCookies) : null;
  // A passkey's answer names its credential: whose it is (if anyone's) is the limiter's email key.
  const passkeyHolder =
    kind === 'passkey-sign-in' ? await passkeyOwner(database.db, credentialIdOf(body.json)) : null;
  const attemptedEmail =
    kind === 'sign-in' ? emailOf(body.json) : (challenged?.email ?? passkeyHolder?.email ?? null);
  const client = clientAddress(request.headers, config.trustedProxies);
  const callbackKey = ssoCallbackKey(client);

  if (kind === 'sso-callback') await limitSsoCallback(server, callbackKey, requestId);
  else if (limited.has(kind)) await limitAttempt(server, kind, attemptedEmail, client, requestId);
  else if (kind === 'passkey-options') await limitPasskeyOptions(server, client);

  const before: Operator | null =
    kind === 'sign-out' || kind === 'change-password'
      ? await operatorFromHeaders(server, request.headers)
      : null;
  if (kind === 'change-password' && before) {
    // Like every route: a session still to confirm its second factor (a password alone) only confirms.
    const due = secondFactorDue(before, config);
    if (due) throw secondFactorRequired(due);
    await limitProof(server, before);
  }

  // Signing out and changing a password are changes: on record before they happen, or not done.
  const changeId =
    before && (kind === 'sign-out' || kind === 'change-password')
      ? await auditLog.record({
          action: kind === 'sign-out' ? 'sign-out' : 'password.change',
          operator: before,
          outcome: 'started',
          requestId,
        })
      : null;

  // An authenticator code signs in once: claimed before it is checked, given back if it fails.
  const totp = kind === 'second-factor' && path.endsWith('/verify-totp') && challenged !== null;
  const code = typeof body.json?.code === 'string' ? body.json.code : '';
  if (totp && !(await claimCode(database.db, challenged.id, code))) {
    await auditLog.record({
      action: 'sign-in',
      operator: challenged,
      outcome: 'code_reused',
      requestId,
      detail: 'an authenticator code',
    });
    throw authRefusal('second-factor', 'INVALID_CODE', 401, requestId);
  }
  // A password change replaces the session: the new one is no sign-in (its entry says why).
  // It keeps how the session signed in and the second factor it proved.
  const forward = () => auth.handler(forwardedRequest(request, body));
  const response = await (kind === 'change-password' && before
    ? replacingSession(requestId, forward, carriedFrom(before.session))
    : withRequestId(requestId, forward));
  if (totp && !response.ok) await releaseCode(database.db, challenged.id, code);
  const changeOutcome = changeId === null || response.ok ? 'success' : await errorCode(response);
  if (changeId !== null) await auditLog.settle(changeId, { outcome: changeOutcome }, requestId);
  // A wrong current password is a wrong proof like any other: five in all end the session.
  if (kind === 'change-password' && before && changeOutcome === 'invalid_password')
    await strike(server, before, requestId);

  // A right code is a sign-in, recorded where the session is created; a wrong one is recorded here.
  // Without a challenge nobody signed in to cause it: on record once per client and window.
  if (
    kind === 'second-factor' &&
    response.status >= 400 &&
    (challenged !== null ||
      (await failureGateOf(server.signInLimiter).first(`second-factor:${client ?? 'unknown'}`)))
  ) {
    await auditLog.record({
      action: 'sign-in',
      operator: challenged,
      outcome: await errorCode(response),
      requestId,
      detail: path.endsWith('totp') ? 'an authenticator code' : 'a backup code',
    });
  }

  if (kind === 'passkey-sign-in' && response.status >= 400) {
    const outcome = await errorCode(response);
    consoleMetrics().signInFailures.inc({ method: 'passkey', reason: outcome });
    if (outcome === SIGN_IN_NOT_RECORDED.toLowerCase()) {
      consoleMetrics().auditWriteFailures.inc({ stage: 'record' });
      throw auditUnavailable(requestId);
    }
    // An answer naming no operator's passkey: nobody signed in to cause it, once per client and window.
    if (
      passkeyHolder !== null ||
      (await failureGateOf(server.signInLimiter).first(`passkey:${client ?? 'unknown'}`))
    )
      await auditLog.record({
        action: 'sign-in',
        operator: passkeyHolder,
        outcome,
        requestId,
        detail: 'a passkey',
      });
    // The console's own words; a disabled operator's passkey reads as any refused one.
    throw authRefusal('passkey-sign-in', 'PASSKEY_REFUSED', 401, requestId);
  }

  // Successful sign-ins are recorded where better-auth creates the session (lib/server/compose.ts).
  if (kind === 'sign-in' && response.status >= 400) {
    const outcome = await errorCode(response);
    // better-auth's own code (or http_<status>): a bounded set, never what the person typed.
    consoleMetrics().signInFailures.inc({ method: 'password', reason: outcome });
    // The session was refused because its entry could not be written: there is no log to write to.
    if (outcome === SIGN_IN_NOT_RECORDED.toLowerCase()) {
      consoleMetrics().auditWriteFailures.inc({ stage: 'record' });
      throw auditUnavailable(requestId);
    }
    await auditLog.record({
      action: 'sign-in',
      operator: await knownOperator(database, attemptedEmail),
      outcome,
      requestId,
      detail: 'email and password',
    });
    // A disabled operator's right password reads as a wrong one (lib/server/auth-answers.ts); the
    // log keeps the real outcome.
  }
  if (kind === 'sso-callback') {
    const error = ssoError(response);
    // The IdP's `?error=` is anyone's to write: one reason, so a client cannot mint labels.
    if (error) consoleMetrics().signInFailures.inc({ method: 'sso', reason: 'failed' });
    // Anyone can fail a callback without signing in: on record once per client and window.
    if (
      error &&
      error !== SIGN_IN_NOT_RECORDED.toLowerCase() &&
      (await failureGateOf(server.signInLimiter).first(callbackKey))
    ) {
      await auditLog.record({
        action: 'sign-in',
        operator: null,
        outcome: error,
        requestId,
        detail: 'single sign-on; further failures from this client are recorded once per window',
      });
    }
    // A redirect: back to the console, or to the sign-in page with the IdP's or better-auth's
    // `?error=`, which the page never shows as such (app/sign-in/_components/sign-in.schema.ts).
    return response;
  }
  // Only the console's words reach a person, and no session token reaches page scripts.
  return inConsoleWords(kind, response, requestId);
}

/** Counts a sign-in, SSO start or password change against the limiter; over the limit, 429. */
async function limitAttempt(
  { database, signInLimiter, auditLog }: ConsoleServer,
  kind: EndpointKind,
  attemptedEmail: string | null,
  client: string | null,
  requestId: string,
): Promise<void> {
  const verdict = (await signInLimiter?.attempt(signInKeys(attemptedEmail, client))) ?? { allowed: true };
  if (verdict.allowed) return;
  consoleMetrics().rateLimitRefusals.inc({ limit: 'sign-in' });
  // One entry per window and key, not one per refused guess: a flood cannot flood the log.
  if (kind === 'sign-in' && verdict.firstRefusal) {
    await auditLog.record({
      action: 'sign-in',
      operator: await knownOperator(database, attemptedEmail),
      outcome: 'rate_limited',
      requestId,
      detail: 'further attempts are refused without an entry until the limit resets',
    });
  }
  throw rateLimited(verdict.retryAfterSeconds);
}

/**
 * Each passkey challenge is a row for five minutes: counted per client, apart from sign-ins (a
 * sign-in with a passkey asks for one challenge, then counts its answer as a sign-in attempt).
 */
async function limitPasskeyOptions({ signInLimiter }: ConsoleServer, client: string | null): Promise<void> {
  const key = `passkey-options:${client ?? 'unknown'}`;
  const verdict = (await signInLimiter?.attempt([key])) ?? { allowed: true };
  if (verdict.allowed) return;
  consoleMetrics().rateLimitRefusals.inc({ limit: 'sign-in' });
  throw rateLimited(verdict.retryAfterSeconds);
}

/**
 * Counts an SSO callback per client, apart from password sign-ins; over the limit, 429. Its entry
 * shares the gate of failed callbacks: one unauthenticated entry per client and window in all.
 */
async function limitSsoCallback(
  { signInLimiter, auditLog }: ConsoleServer,
  callbackKey: string,
  requestId: string,
): Promise<void> {
  const verdict = (await signInLimiter?.attempt([callbackKey])) ?? { allowed: true };
  if (verdict.allowed) return;
  consoleMetrics().rateLimitRefusals.inc({ limit: 'sso-callback' });
  if (await failureGateOf(signInLimiter).first(callbackKey)) {
    await auditLog.record({
      action: 'sign-in',
      operator: null,
      outcome: 'rate_limited',
      requestId,
      detail: 'single sign-on; further callbacks are refused without an entry until the limit resets',
    });
  }
  throw rateLimited(verdict.retryAfterSeconds);
}

function rateLimited(retryAfterSeconds: number): ConsoleError {
  return new ConsoleError('rate_limited', `Too many sign-in attempts: retry in ${retryAfterSeconds} s.`, {
    retryAfterSeconds,
  });
}

type AuthBody = { text: string; json: Record<string, unknown> | null };

/**
 * The body, read once under the size limit. Sign-in, SSO start and password change take a JSON
 * object only: better-auth would also read a form, which carries no email the limiter sees.
 * `requestSignUp` is dropped: whether SSO may create an operator is the console's decision
 * (OIDC_NEW_OPERATOR_ROLE), not the browser's.
 */
async function readAuthBody(request: Request, kind: EndpointKind): Promise<AuthBody> {
  if (request.method !== 'POST') return { text: '', json: null };
  if (!jsonOnly.has(kind)) {
    const read = await readBodyText(request);
    if ('tooLarge' in read) throw new ConsoleError('body_too_large', 'The request is larger than 1 MiB.');
    return { text: read.text, json: null };
  }
  const json = await readJson(request);
  if (typeof json !== 'object' || json === null || Array.isArray(json)) {
    throw new ConsoleError('invalid_request', 'The request body is not a JSON object.');
  }
  const { requestSignUp: _ignored, ...fields } = json as Record<string, unknown>;
  // A password change ends every other session, whatever the request asks.
  if (kind === 'change-password') {
    const forced = { ...fields, revokeOtherSessions: true };
    return { text: JSON.stringify(forced), json: forced };
  }
  // The authenticator's answer only.
  if (kind === 'passkey-sign-in') {
    const response = fields.response;
    return { text: JSON.stringify({ response }), json: { response } };
  }
  // A code only: no remembered device (trustDevice), no sign-in without a session (disableSession).
  if (kind === 'second-factor') {
    const code = typeof fields.code === 'string' ? fields.code.replace(/\s+/g, '').slice(0, 32) : '';
    return { text: JSON.stringify({ code }), json: { code } };
  }
  return { text: JSON.stringify(fields), json: fields };
}

function forwardedRequest(request: Request, body: AuthBody): Request {
  if (request.method !== 'POST') return request;
  const headers = new Headers(request.headers);
  headers.delete('content-length');
  return new Request(request.url, { method: 'POST', headers, body: body.text });
}

/** The credential id a passkey answer names (base64url), or '' when it names none readable. */
function credentialIdOf(body: Record<string, unknown> | null): string {
  const response = body?.response;
  const id = typeof response === 'object' && response !== null ? (response as { id?: unknown }).id : null;
  return typeof id === 'string' && /^[A-Za-z0-9_-]{1,1024}$/.test(id) ? id : '';
}

function emailOf(body: Record<string, unknown> | null): string | null {
  const email = body?.email;
  return typeof email === 'string' ? email.trim().toLowerCase().slice(0, 320) : null;
}

/** Who a failed attempt was for: the operator's id when the email is one of theirs. */
async function knownOperator(
  database: { db: ConsoleDb },
  email: string | null,
): Promise<{ id: string | null; email: string | null } | null> {
  if (!email) return null;
  const row = await database.db.selectFrom('user').select('id').where('email', '=', email).executeTakeFirst();
  // Not an operator's: whatever was typed (a password in the email field?) stays off the record.
  return row ? { id: row.id, email } : null;
}

/**
 * Whose second step this is: the operator the challenge cookie (set by the password step) names,
 * for the limiter's email key, the used-code check and the audit entry. The cookie's signature is
 * better-auth's to check; its identifier is random, so only the browser that passed the password
 * step knows it. A header better-auth might read otherwise than this (two such cookies, a quoted
 * value, the other prefix) is refused, so the entry cannot name someone else than the one checked.
 */
async function challengedOperator(
  request: Request,
  { db }: { db: ConsoleDb },
  secureCookies: boolean,
): Promise<{ id: string; email: string } | null> {
  const cookies = request.headers.get('cookie') ?? '';
  const name = `${secureCookies ? '__Secure-' : ''}console.two_factor`;
  const all = [...cookies.matchAll(/(?:^|;)\s*([^=;\s]*two_factor)\s*=\s*([^;]*)/g)];
  if (all.length === 0) return null;
  const [found] = all;
  if (all.length > 1 || found?.[1] !== name || found[2]?.startsWith('"'))
    throw new ConsoleError('invalid_request', 'This sign-in cannot be read: start again with your password.');
  let signed: string;
  try {
    signed = decodeURIComponent(found[2] ?? '');
  } catch {
    return null;
  }
  const identifier = signed.slice(0, Math.max(0, signed.lastIndexOf('.')));
  if (!identifier.startsWith('2fa-')) return null;
  const row = await db
    .selectFrom('verification')
    .innerJoin('user', 'user.id', 'verification.value')
    .select(['user.id', 'user.email'])
    .where('verification.identifier', '=', identifier)
    .executeTakeFirst();
  return row ?? null;
}

/** better-auth's error code (INVALID_EMAIL_OR_PASSWORD → invalid_email_or_password). */
async function errorCode(response: Response): Promise<string> {
  try {
    const body = (await response.clone().json()) as { code?: unknown };
    if (typeof body.code === 'string' && /^[A-Z0-9_]{1,64}$/.test(body.code)) return body.code.toLowerCase();
  } catch {
    // Not JSON: fall through to the status.
  }
  return response.status === 429 ? 'rate_limited' : `http_${response.status}`;
}

/** An SSO callback that failed redirects to the error page with `?error=`. */
function ssoError(response: Response): string | null {
  const location = response.headers.get('location');
  if (!location) return response.status >= 400 ? `http_${response.status}` : null;
  const error = new URL(location, 'http://console.invalid').searchParams.get('error');
  return error
    ? error
        .toLowerCase()
        .replace(/[^a-z0-9_]/g, '_')
        .slice(0, 64)
    : null;
}
