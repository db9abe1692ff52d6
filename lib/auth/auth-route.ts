import 'server-only';
import { randomUUID } from 'node:crypto';
import { audit } from '@/lib/audit/server';
import { accessFailures, consoleFailure } from '@/lib/console/errors';
import { logger } from '@/lib/console/logger';
import type { AuthConfig } from './config';
import { withOperators } from './database';
import { AUTH_BASE_PATH } from './options';
import { checkRequestOrigin } from './origin';
import { withRequestId } from './request-context';
import { consoleServer, type Operator, operatorFromHeaders } from './server';
import { SignInLimiter, signInKeys } from './sign-in-limiter';

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

let limiter: SignInLimiter | null | undefined;

function signInLimiter(config: AuthConfig): SignInLimiter | null {
  if (limiter === undefined)
    limiter = config.signInRateLimit ? new SignInLimiter(config.signInRateLimit) : null;
  return limiter;
}

/** The /api/auth/[...all] handler: better-auth behind an allow-list, a limiter and the audit log. */
export async function handleAuthRequest(request: Request): Promise<Response> {
  const requestId = randomUUID();
  const { auth, config, database } = await consoleServer();
  const path = new URL(request.url).pathname.slice(AUTH_BASE_PATH.length) || '/';
  const endpoint = allowedEndpoints.find(
    (candidate) => candidate.method === request.method && candidate.path.test(path),
  );
  const json = (status: number, payload: unknown, headers: Record<string, string> = {}) =>
    finish(
      new Response(JSON.stringify(payload), {
        status,
        headers: { 'content-type': 'application/json', ...headers },
      }),
    );
  const finish = (response: Response) => {
    const headers = new Headers(response.headers);
    headers.set('cache-control', 'no-store');
    headers.set('x-request-id', requestId);
    logger.info(
      { operation: `auth ${endpoint?.kind ?? 'refused'}`, requestId, status: response.status },
      'auth request',
    );
    return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
  };

  if (!endpoint) return json(404, consoleFailure(404, 'not_found', 'No such sign-in endpoint.').body);
  // The IdP posts its answer back from its own origin (form_post); state and PKCE protect it.
  if (
    endpoint.kind !== 'sso-callback' &&
    checkRequestOrigin(request, config.trustedOrigins) === 'cross-site'
  ) {
    return json(403, accessFailures.crossSite().body);
  }

  const attemptedEmail = endpoint.kind === 'sign-in' ? await readEmail(request) : null;
  if (endpoint.kind === 'sign-in' || endpoint.kind === 'sso-start' || endpoint.kind === 'change-password') {
    const verdict = signInLimiter(config)?.attempt(
      signInKeys(attemptedEmail, request.headers.get('x-forwarded-for')),
    ) ?? { allowed: true };
    if (!verdict.allowed) {
      if (endpoint.kind === 'sign-in') {
        await audit({
          action: 'sign-in',
          operator: await knownOperator(database, attemptedEmail),
          outcome: 'rate_limited',
          requestId,
        });
      }
      const failure = consoleFailure(
        429,
        'rate_limited',
        `Too many sign-in attempts: retry in ${verdict.retryAfterSeconds} s.`,
        { retryAfterSeconds: verdict.retryAfterSeconds },
      );
      return json(429, failure.body, { 'retry-after': String(verdict.retryAfterSeconds) });
    }
  }

  const before: Operator | null =
    endpoint.kind === 'sign-out' || endpoint.kind === 'change-password'
      ? await operatorFromHeaders(request.headers)
      : null;

  const response = await withRequestId(requestId, () => auth.handler(request));

  // Successful sign-ins are recorded where better-auth creates the session (lib/auth/server.ts).
  if (endpoint.kind === 'sign-in' && response.status >= 400) {
    await audit({
      action: 'sign-in',
      operator: await knownOperator(database, attemptedEmail),
      outcome: await errorCode(response),
      requestId,
      detail: 'email and password',
    });
  }
  if (endpoint.kind === 'sso-callback') {
    const error = ssoError(response);
    if (error) {
      await audit({ action: 'sign-in', operator: null, outcome: error, requestId, detail: 'single sign-on' });
    }
  }
  if (endpoint.kind === 'sign-out' && before && response.ok) {
    await audit({ action: 'sign-out', operator: before, outcome: 'success', requestId });
  }
  if (endpoint.kind === 'change-password' && before) {
    await audit({
      action: 'password.change',
      operator: before,
      outcome: response.ok ? 'success' : await errorCode(response),
      requestId,
    });
  }
  return finish(response);
}

async function readEmail(request: Request): Promise<string | null> {
  try {
    const body: unknown = await request.clone().json();
    const email = (body as { email?: unknown } | null)?.email;
    return typeof email === 'string' ? email.trim().toLowerCase().slice(0, 320) : null;
  } catch {
    return null;
  }
}

/** Who a failed attempt was for: the operator's id when the email is one of theirs. */
async function knownOperator(
  database: { db: Parameters<typeof withOperators>[0] },
  email: string | null,
): Promise<{ id: string | null; email: string | null } | null> {
  if (!email) return null;
  const row = await withOperators(database.db)
    .selectFrom('user')
    .select('id')
    .where('email', '=', email)
    .executeTakeFirst();
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
