// @ts-check

/** @type {import('next').NextConfig} */
const nextConfig = {
  reactStrictMode: true,
  poweredByHeader: false,
  // Native and Node-only packages stay outside the server bundle.
  serverExternalPackages: ['better-sqlite3', 'pg', 'pino'],
};

export default nextConfig;
