import { describe, expect, it } from 'vitest';
import {
  clientAddress,
  PEER_ADDRESS_HEADER,
  parseTrustedProxies,
  type TrustedProxies,
} from './trusted-proxies';

function proxies(value: string): TrustedProxies {
  const parsed = parseTrustedProxies(value);
  if (parsed instanceof Error) throw parsed;
  return parsed;
}

const request = (peer: string | null, forwardedFor?: string) =>
  new Headers({
    ...(peer ? { [PEER_ADDRESS_HEADER]: peer } : {}),
    ...(forwardedFor ? { 'x-forwarded-for': forwardedFor } : {}),
  });

describe('clientAddress', () => {
  it('is the socket address when no proxy is trusted, whatever X-Forwarded-For claims', () => {
    expect(clientAddress(request('203.0.113.9', '198.51.100.1'), null)).toBe('203.0.113.9');
    expect(clientAddress(request('::ffff:203.0.113.9', '198.51.100.1'), null)).toBe('203.0.113.9');
  });

  it('is unknown when the console did not see the socket (plain next start)', () => {
    expect(clientAddress(request(null, '198.51.100.1'), proxies('10.0.0.0/8'))).toBeNull();
  });

  it('reads X-Forwarded-For from the right, only through trusted proxies', () => {
    const trusted = proxies('10.0.0.0/8, 192.0.2.7');
    // The proxy appended the address it saw; what the client wrote before it is not believed.
    expect(clientAddress(request('10.0.0.2', '1.1.1.1, 198.51.100.4'), trusted)).toBe('198.51.100.4');
    expect(clientAddress(request('10.0.0.2', '1.1.1.1, 198.51.100.4, 192.0.2.7'), trusted)).toBe(
      '198.51.100.4',
    );
    // A peer that is not a proxy gets no say.
    expect(clientAddress(request('198.51.100.4', '10.0.0.3'), trusted)).toBe('198.51.100.4');
    // A trusted proxy that forwarded nothing is itself the client; garbage ends the walk.
    expect(clientAddress(request('10.0.0.2'), trusted)).toBe('10.0.0.2');
    expect(clientAddress(request('10.0.0.2', 'not-an-ip'), trusted)).toBe('10.0.0.2');
  });

  it('refuses a proxy list that is not addresses and ranges', () => {
    expect(parseTrustedProxies('10.0.0.0/8, ::1/128')).not.toBeInstanceOf(Error);
    expect(parseTrustedProxies('proxy.internal')).toBeInstanceOf(Error);
    expect(parseTrustedProxies('10.0.0.0/40')).toBeInstanceOf(Error);
    expect(parseTrustedProxies('')).toBeNull();
  });
});
