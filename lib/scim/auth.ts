import 'server-only';
import { createHash, timingSafeEqual } from 'node:crypto';

const digest = (value: string) => createHash('sha256').update(value, 'utf8').digest();

/**
 * Whether the request carries the console's SCIM token as `Authorization: Bearer …`. Both sides are
 * hashed first, so the comparison takes the same time whatever the length or the first wrong
 * character of what was sent. Only the header counts: a token in the query string is no token (it
 * would sit in proxies' and servers' logs).
 */
export function bearerMatches(headers: Headers, token: string): boolean {
  const match = /^Bearer +(\S+) *$/i.exec(headers.get('authorization') ?? '');
  const sent = match?.[1] ?? '';
  // Compared even when nothing was sent, so that a missing header answers as fast as a wrong one.
  const same = timingSafeEqual(digest(sent), digest(token));
  return match !== null && same;
}
