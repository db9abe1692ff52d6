/**
 * Who may read `/metrics`, on the console and on the service: a client on this very machine, or
 * anyone presenting `Authorization: Bearer <METRICS_TOKEN>`. Framework-free: the console's own
 * node:http server (lib/launcher/console-http-server.ts) and the service's router both ask it, before
 * anything else runs.
 *
 * "On this machine" is decided against the socket's address, never a header alone:
 * - the peer must be a loopback address (127.0.0.0/8, ::1, or IPv4-mapped 127.x);
 * - a loopback peer that is not a trusted proxy but sends a forwarding header (X-Forwarded-For,
 *   Forwarded, X-Real-IP) is a proxy nobody declared, relaying someone whose address we cannot
 *   check: refused;
 * - a loopback peer that is a trusted proxy (console: CONSOLE_TRUSTED_PROXIES) counts only when its
 *   X-Forwarded-For names a loopback client (lib/config/trusted-proxies.ts decides who the client
 *   is); a trusted proxy that says nothing, or says the client is elsewhere, is not loopback;
 * - the Host must be a loopback name (or the console's own host): a page on another site that
 *   re-points its name at 127.0.0.1 (DNS rebinding) reaches the socket from loopback, but with its
 *   own name in Host.
 * What it cannot see: a proxy on this machine that forwards without any forwarding header and is
 * not declared. Such a deployment must set METRICS_TOKEN and put the proxy in CONSOLE_TRUSTED_PROXIES
 * (the README says so).
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { BlockList, isIP } from 'node:net';
import { clientAddress, PEER_ADDRESS_HEADER, type TrustedProxies } from '../config/trusted-proxies';

export interface MetricsAccessPolicy {
  /** METRICS_TOKEN; null: loopback only. */
  token: string | null;
  /** Proxies whose X-Forwarded-For is believed (the console's); null: none (the service). */
  trustedProxies: TrustedProxies;
  /** Host names besides the loopback ones a loopback client may use (the console's own). */
  ownHosts?: readonly string[];
}

export type MetricsAccess =
  | { allowed: true }
  /** 401: no credentials given where a token would open it; 403: a wrong token, or none configured. */
  | { allowed: false; status: 401 | 403; reason: 'token_required' | 'wrong_token' | 'loopback_only' };

const FORWARDING_HEADERS = ['x-forwarded-for', 'forwarded', 'x-real-ip'] as const;

/** `::ffff:127.0.0.1` (an IPv4 peer on a dual-stack socket) is 127.0.0.1. */
function normalise(address: string): string {
  const trimmed = address.trim();
  return /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(trimmed)?.[1] ?? trimmed;
}

const loopback = new BlockList();
loopback.addSubnet('127.0.0.0', 8, 'ipv4');
loopback.addAddress('::1', 'ipv6');

export function isLoopbackAddress(address: string | null | undefined): boolean {
  if (!address) return false;
  const plain = normalise(address);
  const family = isIP(plain);
  return family !== 0 && loopback.check(plain, family === 6 ? 'ipv6' : 'ipv4');
}

function isTrusted(address: string, proxies: TrustedProxies): boolean {
  const family = isIP(address);
  return proxies !== null && family !== 0 && proxies.check(address, family === 6 ? 'ipv6' : 'ipv4');
}

const header = (headers: IncomingHttpHeaders, name: string): string | undefined => {
  const value = headers[name];
  return Array.isArray(value) ? value.join(', ') : value;
};

/** `localhost`, `x.localhost`, `127.0.0.1`, `[::1]`, with or without a port. */
function hostIsAllowed(host: string | undefined, ownHosts: readonly string[]): boolean {
  if (!host) return false;
  const name = (host.startsWith('[') ? host.slice(1, host.indexOf(']')) : host.replace(/:\d+$/, ''))
    .toLowerCase()
    .replace(/\.$/, '');
  if (name === 'localhost' || name.endsWith('.localhost')) return true;
  if (isLoopbackAddress(name)) return true;
  return ownHosts.some((own) => own.toLowerCase() === name);
}

/** Whether a request came from this machine (see the module's comment for each rule). */
function isLoopbackOrigin(
  peer: string | undefined,
  headers: IncomingHttpHeaders,
  policy: MetricsAccessPolicy,
): boolean {
  if (!peer || !isLoopbackAddress(peer)) return false;
  if (!hostIsAllowed(header(headers, 'host'), policy.ownHosts ?? [])) return false;
  const forwarded = FORWARDING_HEADERS.some((name) => headers[name] !== undefined);
  if (!isTrusted(normalise(peer), policy.trustedProxies)) return !forwarded;
  // A trusted proxy on loopback: the client is whom its X-Forwarded-For names, and it must name one.
  const hops = (header(headers, 'x-forwarded-for') ?? '').split(',');
  const nearest = normalise(hops[hops.length - 1] ?? '');
  if (isIP(nearest) === 0) return false;
  const client = clientAddress(
    new Headers({ [PEER_ADDRESS_HEADER]: peer, 'x-forwarded-for': hops.join(',') }),
    policy.trustedProxies,
  );
  return isLoopbackAddress(client);
}

const digest = (value: string) => createHash('sha256').update(value).digest();

/** Compares digests, so neither the token's content nor its length shows in the time taken. */
function tokenMatches(given: string, expected: string): boolean {
  return timingSafeEqual(digest(given), digest(expected));
}

/**
 * A bearer token, when one is sent, must be the right one (even on loopback: a scraper with a wrong
 * token is told so rather than let in for where it happens to run). Without one, loopback only.
 */
export function metricsAccess(
  peer: string | undefined,
  headers: IncomingHttpHeaders,
  policy: MetricsAccessPolicy,
): MetricsAccess {
  const authorization = header(headers, 'authorization');
  if (authorization !== undefined) {
    const bearer = /^Bearer +(\S+) *$/i.exec(authorization)?.[1];
    if (policy.token !== null && bearer !== undefined && tokenMatches(bearer, policy.token)) {
      return { allowed: true };
    }
    return { allowed: false, status: 403, reason: policy.token === null ? 'loopback_only' : 'wrong_token' };
  }
  if (isLoopbackOrigin(peer, headers, policy)) return { allowed: true };
  return policy.token === null
    ? { allowed: false, status: 403, reason: 'loopback_only' }
    : { allowed: false, status: 401, reason: 'token_required' };
}

/** The refusal in words a person can act on; never the token or the address. */
export function refusalMessage(reason: Extract<MetricsAccess, { allowed: false }>['reason']): string {
  switch (reason) {
    case 'token_required':
      return 'Metrics are answered on loopback, or with Authorization: Bearer <METRICS_TOKEN>.';
    case 'wrong_token':
      return 'This bearer token does not open the metrics.';
    case 'loopback_only':
      return 'Metrics are answered on loopback only: set METRICS_TOKEN to read them from elsewhere.';
  }
}
