// @ts-check

/** Sent with every response; the pages' Content-Security-Policy (with a nonce) comes from proxy.ts. */
const securityHeaders = [
  { key: 'X-Content-Type-Options', value: 'nosniff' },
  { key: 'X-Frame-Options', value: 'DENY' },
  // Same-origin requests keep their full Referer; other sites learn the origin at most.
  { key: 'Referrer-Policy', value: 'strict-origin-when-cross-origin' },
  { key: 'Permissions-Policy', value: 'camera=(), microphone=(), geolocation=(), payment=(), usb=()' },
  { key: 'Cross-Origin-Opener-Policy', value: 'same-origin' },
  { key: 'Cross-Origin-Resource-Policy', value: 'same-origin' },
];

/** API answers are data, never documents: nothing may run, frame or cache them. */
const apiHeaders = [
  {
    key: 'Content-Security-Policy',
    value: "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'",
  },
  { key: 'Cache-Control', value: 'no-store' },
];

/** @type {import('next').NextConfig} */
const nextConfig = {
  reactStrictMode: true,
  poweredByHeader: false,
  // Native and Node-only packages stay outside the server bundle (prom-client: one copy per process,
  // shared with the launcher's server, lib/metrics/console-metrics.ts). So do the packages whose
  // classes the process's one console server hands to every bundle layer's code, where `instanceof`
  // must hold (lib/process-wide.ts): kysely's adapters and rate-limiter-flexible's refusals.
  serverExternalPackages: ['better-sqlite3', 'kysely', 'pg', 'pino', 'prom-client', 'rate-limiter-flexible'],
  experimental: {
    // forbidden(): pages answer 403 for a role that may not see them.
    authInterrupts: true,
    // Load a route's code when it is first asked for, not every route's at start: preloading them
    // all made the first answer after `npm start` wait 1.2-2 s more of CPU (bench/README.md,
    // "Footprint"); the first visit of each page pays its own load instead.
    preloadEntriesOnStart: false,
  },
  async headers() {
    return [
      { source: '/:path*', headers: securityHeaders },
      { source: '/api/:path*', headers: apiHeaders },
    ];
  },
};

export default nextConfig;
