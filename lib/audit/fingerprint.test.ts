import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { tokenFingerprint } from './fingerprint';

describe('tokenFingerprint', () => {
  it('is the first 12 hex characters of SHA-256', () => {
    expect(tokenFingerprint('abc')).toBe('ba7816bf8f01');
    const token = 'f'.repeat(64);
    expect(tokenFingerprint(token)).toBe(createHash('sha256').update(token).digest('hex').slice(0, 12));
  });

  it('never contains the token', () => {
    const token = 'a1b2c3d4e5f6';
    expect(tokenFingerprint(token)).not.toContain(token);
  });

  it('is null without a token', () => {
    expect(tokenFingerprint(null)).toBeNull();
    expect(tokenFingerprint(undefined)).toBeNull();
    expect(tokenFingerprint('')).toBeNull();
  });
});
