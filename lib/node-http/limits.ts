/**
 * A node:http server with limits against slow, idle or too many clients, shared by the User Group
 * Service and the console's own server (lib/launcher/console-http-server.ts). Node's defaults (60 s
 * for the head, 300 s per request, no connection cap) let such clients hold sockets for minutes.
 */
import { createServer, type RequestListener, type Server } from 'node:http';

export interface HttpLimits {
  /** A client must send the whole request head within this. */
  headersTimeoutMs: number;
  /** …and the whole request, body included; at least headersTimeoutMs. */
  requestTimeoutMs: number;
  /** An idle keep-alive connection is closed after this. */
  keepAliveTimeoutMs: number;
  /** Connections beyond this are closed on accept. */
  maxConnections: number;
}

// The head is a few hundred bytes and a service body at most 1 MiB (30 s allows 35 KB/s); 5 s
// keep-alive is Node's default; 1024 connections is 32 times the benchmark's load.
export const DEFAULT_HTTP_LIMITS: HttpLimits = {
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 30_000,
  keepAliveTimeoutMs: 5_000,
  maxConnections: 1024,
};

/** Throws when a limit cannot be applied: each a positive integer, the head's within the request's. */
export function checkHttpLimits(limits: HttpLimits): void {
  for (const [name, value] of Object.entries(limits)) {
    if (!Number.isSafeInteger(value) || value < 1) throw new Error(`${name} must be a positive integer`);
  }
  // Node refuses a headers timeout longer than the request timeout.
  if (limits.headersTimeoutMs > limits.requestTimeoutMs) {
    throw new Error('headersTimeoutMs must not exceed requestTimeoutMs');
  }
}

/** A node:http server with `limits` applied; throws as checkHttpLimits does. */
export function createLimitedHttpServer(limits: HttpLimits, listener: RequestListener): Server {
  checkHttpLimits(limits);
  const server = createServer(
    {
      headersTimeout: limits.headersTimeoutMs,
      requestTimeout: limits.requestTimeoutMs,
      // Both timeouts are enforced by a sweep at this interval (Node's default is 30 s, which would
      // triple a 10 s headers timeout).
      connectionsCheckingInterval: Math.min(1_000, limits.headersTimeoutMs),
    },
    listener,
  );
  server.keepAliveTimeout = limits.keepAliveTimeoutMs;
  server.maxConnections = limits.maxConnections;
  return server;
}
