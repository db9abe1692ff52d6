import 'server-only';
import { ConsoleError } from '@/lib/console-error';
import { readBodyText, readJson } from '@/lib/server/request-body';
import type { AuthBody, EndpointKind } from './auth-call';

/** Endpoints whose body better-auth reads as JSON or as a form: the console takes JSON only. */
const jsonOnly = new Set<EndpointKind>([
  'sign-in',
  'sso-start',
  'change-password',
  'second-factor',
  'passkey-sign-in',
]);

/**
 * The body, read once under the size limit. Sign-in, SSO start and password change take a JSON
 * object only: better-auth would also read a form, which carries no email the limiter sees.
 * `requestSignUp` is dropped: whether SSO may create an operator is the console's decision
 * (OIDC_NEW_OPERATOR_ROLE), not the browser's.
 */
export async function readAuthBody(request: Request, kind: EndpointKind): Promise<AuthBody> {
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

/** The credential id a passkey answer names (base64url), or '' when it names none readable. */
export function credentialIdOf(body: Record<string, unknown> | null): string {
  const response = body?.response;
  const id = typeof response === 'object' && response !== null ? (response as { id?: unknown }).id : null;
  return typeof id === 'string' && /^[A-Za-z0-9_-]{1,1024}$/.test(id) ? id : '';
}

export function emailOf(body: Record<string, unknown> | null): string | null {
  const email = body?.email;
  return typeof email === 'string' ? email.trim().toLowerCase().slice(0, 320) : null;
}
