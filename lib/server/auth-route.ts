import 'server-only';
import { AUTH_BASE_PATH } from '@/lib/auth/options';
import { checkRequestOrigin } from '@/lib/auth/origin';
import { signInKeys } from '@/lib/auth/sign-in-limiter';
import { clientAddress } from '@/lib/config/trusted-proxies';
import { ConsoleError } from '@/lib/console-api/console-error';
import type { ConsoleDb } from '@/lib/db/console-database';
import { audit } from './audit-log';
import { accessErrors } from './errors';
import { consoleServer, type Operator, operatorFromHeaders } from './index';
import { readBodyText, readJson } from './request-body';
import { withRequestId } from './request-context';
import { handleRequest } from './route';

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
];

type EndpointKind = 'sign-in' | 'sso-start' | 'sso-callback' | 'sign-out' | 'change-password';

/** Endpoints whose body better-auth reads as JSON or as a form: the console takes JSON only. */
const jsonOnly = new Set<EndpointKind>(['sign-in', 'sso-start', 'change-password']);
const limited = jsonOnly;

/** The /api/auth/[...all] handler: better-auth behind an allow-list, a limiter and the audit log. */
export function handleAuthRequest(request: Request): Promise<Response> {
  const path = new URL(request.url).pathname.slice(AUTH_BASE_PATH.length) || '/';
  const endpoint = allowedEndpoints.find(
    (candidate) => candidate.method === request.method && candidate.path.test(path),
  );
  return handleRequest(`auth ${endpoint?.kind ?? 'refused'}`, async ({ requestId }) => {
    if (!endpoint) throw new ConsoleError('not_found', 'No such sign-in endpoint.');
    return handleEndpoint(request, endpoint.kind, requestId);
  });
}

async function handleEndpoint(request: Request, kind: EndpointKind, requestId: string): Promise<Response> {
  const { auth, config, database, signInLimiter } = await consoleServer();
  // The IdP posts its answer back from its own origin (form_post); state and PKCE protect it.
  if (kind !== 'sso-callback' && checkRequestOrigin(request, config.trustedOrigins) === 'cross-site') {
    throw accessErrors.crossSite();
  }

  const body = await readAuthBody(request, kind);
  const attemptedEmail = kind === 'sign-in' ? emailOf(body.json) : null;

  if (limited.has(kind)) {
    const verdict = (await signInLimiter?.attempt(
      signInKeys(attemptedEmail, clientAddress(request.headers, config.trustedProxies)),
    )) ?? { allowed: true };
    if (!verdict.allowed) {
      // One entry per window and key, not one per refused guess: a flood cannot flood the log.
      if (kind === 'sign-in' && verdict.firstRefusal) {
        await audit({
          action: 'sign-in',
          operator: await knownOperator(database, attemptedEmail),
          outcome: 'rate_limited',
          requestId,
          detail: 'further attempts are refused without an entry until the limit resets',
        });
      }
      throw new ConsoleError(
        'rate_limited',
        `Too many sign-in attempts: retry in ${verdict.retryAfterSeconds} s.`,
        {
          retryAfterSeconds: verdict.retryAfterSeconds,
        },
      );
    }
  }

  const before: Operator | null =
    kind === 'sign-out' || kind === 'change-password' ? await operatorFromHeaders(request.headers) : null;

  const response = await withRequestId(requestId, () => auth.handler(forwardedRequest(request, body)));

  // Successful sign-ins are recorded where better-auth creates the session (lib/server/compose.ts).
  if (kind === 'sign-in' && response.status >= 400) {
    await audit({
      action: 'sign-in',
      operator: await knownOperator(database, attemptedEmail),
      outcome: await errorCode(response),
      requestId,
      detail: 'email and password',
    });
  }
  if (kind === 'sso-callback') {
    const error = ssoError(response);
    if (error) {
      await audit({ action: 'sign-in', operator: null, outcome: error, requestId, detail: 'single sign-on' });
    }
  }
  if (kind === 'sign-out' && before && response.ok) {
    await audit({ action: 'sign-out', operator: before, outcome: 'success', requestId });
  }
  if (kind === 'change-password' && before) {
    await audit({
      action: 'password.change',
      operator: before,
      outcome: response.ok ? 'success' : await errorCode(response),
      requestId,
    });
  }
  return response;
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
  return { text: JSON.stringify(fields), json: fields };
}

function forwardedRequest(request: Request, body: AuthBody): Request {
  if (request.method !== 'POST') return request;
  const headers = new Headers(request.headers);
  headers.delete('content-length');
  return new Request(request.url, { method: 'POST', headers, body: body.text });
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
  return { id: row?.id ?? null, email };
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
