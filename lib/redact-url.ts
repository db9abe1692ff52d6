/**
 * Credentials out of anything the console or the service shows or logs: `postgres://user:secret@host/db` becomes
 * `postgres://***@host/db`. Everything up to the last `@` goes, not only what a URL parser would call
 * the user info: a password may hold characters a URL does not allow (`/`, `?`, `#`), and a host lost
 * from a log line costs less than a leaked password. Strings that are not `scheme://` URLs (SQLite file
 * paths) pass through unchanged.
 */

const URL_PREFIX = /^[a-z][a-z0-9+.-]*:\/\//i;
/** Query parameters that pg (and libpq) read as secrets. */
const SECRET_PARAMETER = /([?&](?:password|sslpassword)=)[^&#]*/gi;

export function redactUrlCredentials(value: string): string {
  const prefix = URL_PREFIX.exec(value)?.[0];
  if (prefix === undefined) return value;
  const rest = value.slice(prefix.length);
  const at = rest.lastIndexOf('@');
  const withoutUserInfo = at === -1 ? rest : `***@${rest.slice(at + 1)}`;
  return `${prefix}${withoutUserInfo.replace(SECRET_PARAMETER, '$1***')}`;
}

/** Every `scheme://…` URL in a free text (an error message), redacted. */
export const redactUrlsInText = (text: string): string =>
  text.replace(/\b[a-z][a-z0-9+.-]*:\/\/\S+/gi, redactUrlCredentials);
