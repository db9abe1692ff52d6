import 'server-only';
import { AUTH_BASE_PATH } from '@/lib/auth/options';
import { checkRequestOrigin } from '@/lib/auth/origin';
import { clientAddress } from '@/lib/config/trusted-proxies';
import { ConsoleError } from '@/lib/console-error';
import type { ConsoleServer } from '@/lib/server';
import { accessErrors } from '@/lib/server/errors';
import { requestFrame } from '@/lib/server/frame/frame';
import { anyone } from '@/lib/server/frame/guards';
import { onRecord } from '@/lib/server/frame/writer';
import { readAuthBody } from './auth-body';
import type { EndpointHandler, EndpointKind } from './auth-call';
import { passkeyChallenge, signInWithPasskey } from './passkey-endpoints';
import { changePassword, signInWithPassword, signOut } from './password-endpoints';
import { signInSecondStep } from './second-factor-endpoint';
import { finishSso, startSso } from './sso-endpoints';

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

/**
 * What each kind of endpoint does around better-auth: its limit, its audit entries and its answer
 * (lib/auth/proxy/).
 */
const endpointHandlers: Record<EndpointKind, EndpointHandler> = {
  'sign-in': signInWithPassword,
  'sso-start': startSso,
  'sso-callback': finishSso,
  'sign-out': signOut,
  'change-password': changePassword,
  'second-factor': signInSecondStep,
  'passkey-options': passkeyChallenge,
  'passkey-sign-in': signInWithPasskey,
};

/** The endpoint a request asks for, of the allowed ones (null: none). */
function endpointOf(request: Request): { kind: EndpointKind; path: string } | null {
  const path = new URL(request.url).pathname.slice(AUTH_BASE_PATH.length) || '/';
  const endpoint = allowedEndpoints.find(
    (candidate) => candidate.method === request.method && candidate.path.test(path),
  );
  return endpoint ? { kind: endpoint.kind, path } : null;
}

/**
 * The /api/auth/[...all] handler: better-auth behind an allow-list, a limiter and the audit log,
 * in the console's one frame with the public guard (nobody is signed in to sign in), on the server
 * its route hands it (asked for inside the frame, so that a server that cannot start answers in
 * the documented error shape).
 */
export function authRoute(consoleServer: () => Promise<ConsoleServer>) {
  return requestFrame<unknown, null>(
    {
      name: (request) => `auth ${endpointOf(request)?.kind ?? 'refused'}`,
      guard: anyone,
      server: consoleServer,
    },
    ({ request, server, scope: { requestId } }) => {
      const endpoint = endpointOf(request);
      if (!endpoint) throw noSuchEndpoint();
      return handleEndpoint(server, request, endpoint.kind, endpoint.path, requestId);
    },
  );
}

const noSuchEndpoint = () => new ConsoleError('not_found', 'No such sign-in endpoint.');

/** The checks every endpoint shares (where the request comes from, its body), then its own handler. */
async function handleEndpoint(
  server: ConsoleServer,
  request: Request,
  kind: EndpointKind,
  path: string,
  requestId: string,
): Promise<Response> {
  const { config } = server;
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
  const client = clientAddress(request.headers, config.trustedProxies);
  const record = onRecord(server, requestId);
  return endpointHandlers[kind]({ server, request, path, requestId, body, client, record });
}
