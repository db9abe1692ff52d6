import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createTokenVault } from './vault';

describe('the job token vault', () => {
  const vault = createTokenVault(randomBytes(32));

  it('opens what it sealed, with a fresh IV each time (past the first pool of 256)', () => {
    const sealed = Array.from({ length: 600 }, () => vault.seal('ugt_secret', 'job/1/result'));
    const ivs = new Set(
      sealed.map((text) =>
        Buffer.from(text.split('.')[1] ?? '', 'base64url')
          .subarray(0, 12)
          .toString('hex'),
      ),
    );
    expect(ivs.size).toBe(600);
    for (const text of sealed) expect(vault.open(text, 'job/1/result')).toBe('ugt_secret');
  });

  it('refuses a ciphertext moved to another row, or from another key', () => {
    const sealed = vault.seal('ugt_secret', 'job/1/result');
    expect(() => vault.open(sealed, 'job/2/result')).toThrow();
    expect(() => createTokenVault(randomBytes(32)).open(sealed, 'job/1/result')).toThrow();
  });
});
