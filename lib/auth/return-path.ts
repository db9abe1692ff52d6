/**
 * Where to go after signing in: a path on this console only. Anything else (another origin,
 * a protocol-relative `//host`, a backslash trick, the sign-in page itself) becomes `/`.
 *
 * The check runs on the path as the URL parser normalises it *and* as a browser would decode it:
 * `/.//evil.example` and `/%2e//evil.example` are single-slash inputs that normalise to
 * `//evil.example`, which a browser follows to another origin.
 */
const BASE = 'http://console.invalid';
const hasUnsafeCharacter = (text: string) =>
  [...text].some(
    (character) => character === '\\' || character.charCodeAt(0) < 0x20 || character === '\u007f',
  );

export function safeReturnPath(value: unknown): string {
  const candidate = Array.isArray(value) ? value[0] : value;
  if (typeof candidate !== 'string' || candidate.length > 2048) return '/';
  if (!candidate.startsWith('/') || candidate.startsWith('//') || hasUnsafeCharacter(candidate)) return '/';
  const url = new URL(candidate, BASE);
  if (url.origin !== BASE || !isPlainPath(url.pathname) || url.pathname.startsWith('/sign-in')) return '/';
  return `${url.pathname}${url.search}${url.hash}`;
}

/** One leading slash and no backslash or control character, before and after percent-decoding. */
function isPlainPath(pathname: string): boolean {
  let decoded: string;
  try {
    decoded = decodeURIComponent(pathname);
  } catch {
    return false;
  }
  return [pathname, decoded].every(
    (form) => form.startsWith('/') && !form.startsWith('//') && !hasUnsafeCharacter(form),
  );
}
