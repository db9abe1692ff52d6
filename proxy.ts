import { type NextRequest, NextResponse } from 'next/server';

/**
 * A Content-Security-Policy with a fresh nonce for every page: Next 16 puts the nonce on its own
 * hydration scripts (it reads it from the request's CSP header), so no inline script runs without
 * it and no `'unsafe-inline'` is needed for scripts. Style attributes (`style="…"`, which React
 * renders and which cannot carry a nonce) are allowed; style elements need the nonce.
 * API routes get a static deny-all policy from next.config.js.
 */
export function proxy(request: NextRequest) {
  const nonce = Buffer.from(crypto.getRandomValues(new Uint8Array(16))).toString('base64');
  const development = process.env.NODE_ENV === 'development';
  const policy = [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${development ? " 'unsafe-eval'" : ''}`,
    `style-src 'self' 'nonce-${nonce}'`,
    "style-src-attr 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self'",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');

  const requestHeaders = new Headers(request.headers);
  requestHeaders.set('x-nonce', nonce);
  requestHeaders.set('content-security-policy', policy);
  // The path asked for, so a page that sends the person to sign in can bring them back to it.
  requestHeaders.set('x-console-path', `${request.nextUrl.pathname}${request.nextUrl.search}`);
  const response = NextResponse.next({ request: { headers: requestHeaders } });
  response.headers.set('content-security-policy', policy);
  // Pages of a signed-in console: never kept by a browser or a proxy.
  response.headers.set('cache-control', 'no-store');
  return response;
}

export const config = {
  matcher: ['/((?!api/|_next/static/|_next/image|favicon).*)'],
};
