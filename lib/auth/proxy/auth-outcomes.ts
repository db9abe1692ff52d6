import 'server-only';
import { SIGN_IN_NOT_RECORDED } from '@/lib/auth/options';
import type { ConsoleServer } from '@/lib/server';
import { auditUnavailable } from '@/lib/server/errors';

/** better-auth's error code (INVALID_EMAIL_OR_PASSWORD → invalid_email_or_password). */
export async function errorCode(response: Response): Promise<string> {
  try {
    const body = (await response.clone().json()) as { code?: unknown };
    if (typeof body.code === 'string' && /^[A-Z0-9_]{1,64}$/.test(body.code)) return body.code.toLowerCase();
  } catch {
    // Not JSON: fall through to the status.
  }
  return response.status === 429 ? 'rate_limited' : `http_${response.status}`;
}

/** An SSO callback that failed redirects to the error page with `?error=`. */
export function ssoError(response: Response): string | null {
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

/** better-auth's code for a session refused because its sign-in could not be put on record. */
export const notRecorded = (outcome: string): boolean => outcome === SIGN_IN_NOT_RECORDED.toLowerCase();

/** The session was refused because its entry could not be written: there is no log to write to. */
export function refuseUnrecordedSignIn(
  { metrics }: Pick<ConsoleServer, 'metrics'>,
  outcome: string,
  requestId: string,
): void {
  if (!notRecorded(outcome)) return;
  metrics.auditWriteFailures.inc({ stage: 'record' });
  throw auditUnavailable(requestId);
}
