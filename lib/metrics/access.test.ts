/**
 * Who reads /metrics, attacked case by case: a client elsewhere, one that claims to be local in a
 * header, one relayed by a proxy nobody declared, one a declared proxy says is elsewhere, a page
 * that re-pointed its name at 127.0.0.1, and token guesses.
 */
import type { IncomingHttpHeaders } from 'node:http';
import { describe, expect, it } from 'vitest';
import { parseTrustedProxies } from '../config/trusted-proxies';
import { isLoopbackAddress, type MetricsAccessPolicy, metricsAccess } from './access';

const TOKEN = 'metrics-token-0123456789abcdef';
const proxies = (value: string) =>
  parseTrustedProxies(value) as Exclude<ReturnType<typeof parseTrustedProxies>, Error>;
const open: MetricsAccessPolicy = { token: TOKEN, trustedProxies: null, ownHosts: ['console.example.com'] };
const loopbackOnly: MetricsAccessPolicy = { ...open, token: null };
const behindLocalProxy: MetricsAccessPolicy = { ...open, trustedProxies: proxies('127.0.0.1, 10.0.0.0/8') };
const local = { host: '127.0.0.1:3000' };

const cases: Array<[string, string | undefined, IncomingHttpHeaders, MetricsAccessPolicy, number]> = [
  ['a loopback client, no token', '127.0.0.1', local, open, 200],
  ['a loopback client on ::1', '::1', { host: '[::1]:3000' }, open, 200],
  ['an IPv4-mapped loopback client', '::ffff:127.0.0.1', { host: 'localhost:3000' }, loopbackOnly, 200],
  ['127.8.8.8 is loopback too', '127.8.8.8', local, loopbackOnly, 200],
  ['a client elsewhere, no token', '198.51.100.7', local, open, 401],
  ['a client elsewhere, no token configured', '198.51.100.7', local, loopbackOnly, 403],
  [
    'a client elsewhere with the token',
    '198.51.100.7',
    { ...local, authorization: `Bearer ${TOKEN}` },
    open,
    200,
  ],
  ['the token, lower-case scheme', '198.51.100.7', { ...local, authorization: `bearer ${TOKEN}` }, open, 200],
  ['a wrong token', '198.51.100.7', { ...local, authorization: `Bearer ${TOKEN}x` }, open, 403],
  [
    'a prefix of the token',
    '198.51.100.7',
    { ...local, authorization: `Bearer ${TOKEN.slice(0, 8)}` },
    open,
    403,
  ],
  ['the token as Basic', '198.51.100.7', { ...local, authorization: `Basic ${TOKEN}` }, open, 403],
  ['a wrong token on loopback', '127.0.0.1', { ...local, authorization: 'Bearer nope' }, open, 403],
  [
    'any token when none is configured',
    '198.51.100.7',
    { ...local, authorization: 'Bearer ' },
    loopbackOnly,
    403,
  ],
  // Headers that claim loopback from elsewhere change nothing: only the socket counts.
  [
    'a client elsewhere claiming loopback in X-Forwarded-For',
    '198.51.100.7',
    { ...local, 'x-forwarded-for': '127.0.0.1', 'x-console-peer-address': '127.0.0.1' },
    behindLocalProxy,
    401,
  ],
  // A proxy on loopback that nobody declared relays the world: refused when it says it forwards.
  [
    'an undeclared local proxy (X-Forwarded-For)',
    '127.0.0.1',
    { ...local, 'x-forwarded-for': '203.0.113.9' },
    open,
    401,
  ],
  [
    'an undeclared local proxy (Forwarded)',
    '127.0.0.1',
    { ...local, forwarded: 'for=203.0.113.9' },
    open,
    401,
  ],
  ['an undeclared local proxy (X-Real-IP)', '127.0.0.1', { ...local, 'x-real-ip': '203.0.113.9' }, open, 401],
  // A declared proxy on loopback: the client is whom it names.
  [
    'a declared local proxy naming a client elsewhere',
    '127.0.0.1',
    { ...local, 'x-forwarded-for': '203.0.113.9' },
    behindLocalProxy,
    401,
  ],
  [
    'a declared local proxy: the client prepended 127.0.0.1 itself',
    '127.0.0.1',
    { ...local, 'x-forwarded-for': '127.0.0.1, 203.0.113.9' },
    behindLocalProxy,
    401,
  ],
  ['a declared local proxy that names nobody', '127.0.0.1', local, behindLocalProxy, 401],
  [
    'a declared local proxy naming garbage',
    '127.0.0.1',
    { ...local, 'x-forwarded-for': 'localhost' },
    behindLocalProxy,
    401,
  ],
  [
    'a declared local proxy naming a local client',
    '127.0.0.1',
    { host: 'console.example.com', 'x-forwarded-for': '127.0.0.1' },
    behindLocalProxy,
    200,
  ],
  [
    'a declared proxy elsewhere naming a client "on loopback" (its own, not ours)',
    '10.0.0.2',
    { ...local, 'x-forwarded-for': '127.0.0.1' },
    behindLocalProxy,
    401,
  ],
  // DNS rebinding: the browser reaches 127.0.0.1 but sends the attacker's name.
  ['loopback with a foreign Host', '127.0.0.1', { host: 'attacker.example:3000' }, open, 401],
  ['loopback without a Host', '127.0.0.1', {}, open, 401],
  ['loopback with the console’s own Host', '127.0.0.1', { host: 'console.example.com' }, open, 200],
  ['loopback with a *.localhost Host', '127.0.0.1', { host: 'app.localhost:3000' }, open, 200],
  ['no socket address', undefined, local, open, 401],
];

describe('metricsAccess', () => {
  it.each(cases)('%s', (_name, peer, headers, policy, expected) => {
    const verdict = metricsAccess(peer, headers, policy);
    expect(verdict.allowed ? 200 : verdict.status).toBe(expected);
  });

  it('knows loopback addresses and nothing else', () => {
    for (const address of ['127.0.0.1', '127.255.0.3', '::1', '0:0:0:0:0:0:0:1', '::ffff:127.0.0.1']) {
      expect(isLoopbackAddress(address), address).toBe(true);
    }
    for (const address of ['128.0.0.1', '10.0.0.1', '::2', '::', '0.0.0.0', 'localhost', '', null]) {
      expect(isLoopbackAddress(address), String(address)).toBe(false);
    }
  });
});
