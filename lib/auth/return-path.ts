/**
 * Where to go after signing in: a path on this console only. Anything else (another origin,
 * a protocol-relative `//host`, a backslash trick, the sign-in page itself) becomes `/`.
 */
export function safeReturnPath(value: unknown): string {
  const candidate = Array.isArray(value) ? value[0] : value;
  if (typeof candidate !== 'string' || candidate.length > 2048) return '/';
  if (!candidate.startsWith('/') || candidate.startsWith('//') || candidate.includes('\\')) return '/';
  if ([...candidate].some((character) => character.charCodeAt(0) < 0x20)) return '/';
  const url = new URL(candidate, 'http://console.invalid');
  if (url.origin !== 'http://console.invalid' || url.pathname.startsWith('/sign-in')) return '/';
  return `${url.pathname}${url.search}${url.hash}`;
}
