import { describe, expect, it } from 'vitest';
import { decodeParam } from './decode-param';

describe('decodeParam', () => {
  it.each([
    ['acme', 'acme'],
    ['acme%20inc', 'acme inc'],
    ['%E0%A4%A8', 'न'],
    ['a%2Fb', 'a/b'],
    ['', ''],
  ])('decodes %j', (value, decoded) => {
    expect(decodeParam(value)).toBe(decoded);
  });

  it.each(['%E0%A4%A', '%', '%zz', 'acme%', '%C3%28', '%ED%A0%80'])(
    'answers null for the malformed %j instead of throwing',
    (value) => {
      expect(decodeParam(value)).toBeNull();
    },
  );
});
