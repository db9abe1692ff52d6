/**
 * Who is on the other end of a request, for the sign-in limiter and the audit log. The console's
 * own HTTP server (lib/launcher/console-server.ts) writes the socket's address into
 * PEER_ADDRESS_HEADER on every request, replacing whatever the client sent. X-Forwarded-For is
 * believed only hop by hop from the right, and only while each hop is a configured proxy
 * (CONSOLE_TRUSTED_PROXIES): a client can write anything into it, a proxy only appends.
 */
import { BlockList, isIP } from 'node:net';

export const PEER_ADDRESS_HEADER = 'x-console-peer-address';

export type TrustedProxies = BlockList | null;

/** "10.0.0.1, 10.1.0.0/16, ::1": addresses and CIDR ranges, IPv4 or IPv6. */
export function parseTrustedProxies(value: string | undefined): TrustedProxies | Error {
  if (!value?.trim()) return null;
  const list = new BlockList();
  for (const entry of value.split(',').map((part) => part.trim())) {
    const [address = '', prefix] = entry.split('/');
    const family = isIP(address);
    const bits = prefix === undefined ? undefined : Number(prefix);
    const maxBits = family === 6 ? 128 : 32;
    if (family === 0 || (bits !== undefined && !(Number.isInteger(bits) && bits >= 0 && bits <= maxBits))) {
      return new Error(
        `CONSOLE_TRUSTED_PROXIES must list IP addresses or CIDR ranges separated by commas ("${entry}" is neither)`,
      );
    }
    const type = family === 6 ? 'ipv6' : 'ipv4';
    if (bits === undefined) list.addAddress(address, type);
    else list.addSubnet(address, bits, type);
  }
  return list;
}

/** `::ffff:10.0.0.1` (an IPv4 peer on a dual-stack socket) is 10.0.0.1. */
function normalise(address: string): string {
  const trimmed = address.trim();
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(trimmed);
  return mapped?.[1] ?? trimmed;
}

function isTrusted(address: string, proxies: TrustedProxies): boolean {
  const family = isIP(address);
  return proxies !== null && family !== 0 && proxies.check(address, family === 6 ? 'ipv6' : 'ipv4');
}

/**
 * The client's address: the peer itself, or, when the peer is a trusted proxy, the rightmost
 * X-Forwarded-For entry that is not a trusted proxy. null when the peer is unknown (the console
 * was started without its own server, by a plain `next start`).
 */
export function clientAddress(headers: Headers, proxies: TrustedProxies): string | null {
  const peer = headers.get(PEER_ADDRESS_HEADER);
  if (!peer) return null;
  let client = normalise(peer);
  if (!isTrusted(client, proxies)) return client;
  const hops = (headers.get('x-forwarded-for') ?? '').split(',').map(normalise).filter(Boolean);
  while (hops.length > 0) {
    const hop = hops.pop() as string;
    if (isIP(hop) === 0) return client;
    client = hop;
    if (!isTrusted(hop, proxies)) return hop;
  }
  return client;
}
