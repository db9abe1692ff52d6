import { describe, expect, it } from 'vitest';
import { checkRequestOrigin } from './origin';

const trusted = ['http://localhost:3000', 'http://127.0.0.1:3000', 'https://console.example.com'];
const request = (method: string, headers: Record<string, string>) => ({
  method,
  headers: new Headers(headers),
});

describe('checkRequestOrigin', () => {
  it.each([
    ['POST', { origin: 'http://localhost:3000' }, 'allowed'],
    ['POST', { origin: 'https://console.example.com' }, 'allowed'],
    ['POST', { origin: 'http://evil.example' }, 'cross-site'],
    ['POST', { origin: 'null' }, 'cross-site'],
    ['DELETE', { origin: 'http://localhost:3001' }, 'cross-site'],
    ['PATCH', { origin: 'https://console.example.com.evil.example' }, 'cross-site'],
    ['POST', { 'sec-fetch-site': 'cross-site' }, 'cross-site'],
    ['POST', { 'sec-fetch-site': 'same-site' }, 'cross-site'],
    ['POST', { 'sec-fetch-site': 'same-origin' }, 'allowed'],
    ['POST', {}, 'allowed'],
    ['GET', { origin: 'http://evil.example' }, 'allowed'],
  ] as const)('%s with %o is %s', (method, headers, verdict) => {
    expect(checkRequestOrigin(request(method, headers), trusted)).toBe(verdict);
  });

  // Security round 3: a cross-site navigation to the audit export downloaded it and wrote an entry in
  // the victim's name. The console's API routes refuse reads from another site too.
  it.each([
    ['GET', { 'sec-fetch-site': 'cross-site' }, 'cross-site'],
    ['GET', { 'sec-fetch-site': 'same-site' }, 'cross-site'],
    ['GET', { 'sec-fetch-site': 'same-origin' }, 'allowed'],
    ['GET', { 'sec-fetch-site': 'none' }, 'allowed'],
    ['GET', {}, 'allowed'],
  ] as const)('a read, reads too: %s with %o is %s', (method, headers, verdict) => {
    expect(checkRequestOrigin(request(method, headers), trusted, { readsToo: true })).toBe(verdict);
  });
});
