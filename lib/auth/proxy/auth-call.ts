import 'server-only';
import type { ConsoleServer } from '@/lib/server';
import type { OnRecord } from '@/lib/server/frame/writer';
import { withRequestId } from '@/lib/server/request-context';

/** The better-auth endpoints the console lets through (lib/auth/proxy/route.ts), by what they do. */
export type EndpointKind =
  | 'sign-in'
  | 'sso-start'
  | 'sso-callback'
  | 'sign-out'
  | 'change-password'
  | 'second-factor'
  | 'passkey-options'
  | 'passkey-sign-in';

/** The body as read once: its text goes on to better-auth, its fields (when JSON) are the console's to read. */
export type AuthBody = { text: string; json: Record<string, unknown> | null };

/** One request to an allowed endpoint, past the origin check and with its body read once. */
export type AuthCall = {
  server: ConsoleServer;
  request: Request;
  /** The path under /api/auth (`/two-factor/verify-totp`). */
  path: string;
  requestId: string;
  body: AuthBody;
  /** The client's address as the trusted proxies tell it (null when unknown). */
  client: string | null;
  /** Where its outcomes go on record: handed by the frame (lib/server/frame/audited.ts). */
  record: OnRecord;
};

/** Each kind of endpoint answers through its own handler. */
export type EndpointHandler = (call: AuthCall) => Promise<Response>;

function forwardedRequest(request: Request, body: AuthBody): Request {
  if (request.method !== 'POST') return request;
  const headers = new Headers(request.headers);
  headers.delete('content-length');
  return new Request(request.url, { method: 'POST', headers, body: body.text });
}

/** Hands the request to better-auth, with the body as the console read (and rewrote) it. */
export const askBetterAuth =
  ({ server, request, body }: AuthCall) =>
  (): Promise<Response> =>
    server.auth.handler(forwardedRequest(request, body));

/** better-auth's answer, its hooks (the audit entries they write) knowing the request's id. */
export const forwardToBetterAuth = (call: AuthCall): Promise<Response> =>
  withRequestId(call.requestId, askBetterAuth(call));

/**
 * A sign-in's own work (its hash or second factor), with the heavy reads held back while it runs
 * (lib/db/read-pool/read-gate.ts). Called only past the console's checks (origin, body, limiter):
 * a refused or malformed attempt does not hold the gate.
 */
export const signInStep = (
  call: AuthCall,
  step: () => Promise<Response> = () => forwardToBetterAuth(call),
): Promise<Response> => call.server.readGate.hold(step);
