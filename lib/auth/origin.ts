/**
 * Cross-site request refusal for state-changing requests. Browsers send `Origin` on every POST,
 * PUT, PATCH and DELETE, and `Sec-Fetch-Site` on every request; a request carrying neither comes
 * from a non-browser client, which holds a session cookie only if it was handed one.
 */
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

export type OriginVerdict = 'allowed' | 'cross-site';

export function checkRequestOrigin(
  request: Pick<Request, 'method' | 'headers'>,
  trustedOrigins: readonly string[],
): OriginVerdict {
  if (SAFE_METHODS.has(request.method.toUpperCase())) return 'allowed';
  const origin = request.headers.get('origin');
  if (origin !== null) {
    // "null" (sandboxed frames, some redirects) is never trusted.
    return trustedOrigins.includes(origin.toLowerCase()) ? 'allowed' : 'cross-site';
  }
  const fetchSite = request.headers.get('sec-fetch-site');
  if (fetchSite === 'cross-site' || fetchSite === 'same-site') return 'cross-site';
  return 'allowed';
}
