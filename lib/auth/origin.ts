/**
 * Cross-site request refusal for state-changing requests. Browsers send `Origin` on every POST,
 * PUT, PATCH and DELETE, and `Sec-Fetch-Site` on every request; a request carrying neither comes
 * from a non-browser client, which holds a session cookie only if it was handed one.
 *
 * `readsToo`: a GET is refused from another site as well. The console's own API routes ask for it:
 * each of them writes to the audit log (a read of the log, a download), and a link or an image on
 * another site must not write an entry in the name of whoever follows it. A GET typed or
 * bookmarked (`Sec-Fetch-Site: none`) or made by the console's pages (`same-origin`) passes.
 */
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

export type OriginVerdict = 'allowed' | 'cross-site';

export function checkRequestOrigin(
  request: Pick<Request, 'method' | 'headers'>,
  trustedOrigins: readonly string[],
  { readsToo = false }: { readsToo?: boolean } = {},
): OriginVerdict {
  if (SAFE_METHODS.has(request.method.toUpperCase()))
    return readsToo && fromAnotherSite(request.headers) ? 'cross-site' : 'allowed';
  const origin = request.headers.get('origin');
  if (origin !== null) {
    // "null" (sandboxed frames, some redirects) is never trusted.
    return trustedOrigins.includes(origin.toLowerCase()) ? 'allowed' : 'cross-site';
  }
  return fromAnotherSite(request.headers) ? 'cross-site' : 'allowed';
}

/** The browser says another site (or a sibling subdomain) started this request: `Sec-Fetch-Site`. */
export function fromAnotherSite(headers: Pick<Headers, 'get'>): boolean {
  const fetchSite = headers.get('sec-fetch-site');
  return fetchSite === 'cross-site' || fetchSite === 'same-site';
}
