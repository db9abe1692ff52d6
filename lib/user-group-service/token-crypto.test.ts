/** Secrets at rest: token encryption and digests, API key digests, and where the key comes from. */
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase } from './database';
import { resolveEncryptionKey } from './encryption-key';
import { makeTempDir } from './test-support';
import { apiKeyDigest, createTokenCrypto, generateApiKey, parseEncryptionKey } from './token-crypto';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

describe('token crypto', () => {
  const crypto = createTokenCrypto(Buffer.alloc(32, 7));

  it('makes 64-character lowercase hex tokens, encrypted with a fresh IV each time', () => {
    const token = crypto.newToken();
    expect(token).toMatch(/^[0-9a-f]{64}$/);
    const digest = crypto.digest(token);
    const first = crypto.encrypt(token, digest);
    const second = crypto.encrypt(token, digest);
    expect(first).not.toBe(second);
    expect(first).not.toContain(token);
    expect(crypto.decrypt(first, digest)).toBe(token);
  });

  it('binds a ciphertext to its digest and to the key', () => {
    const token = crypto.newToken();
    const digest = crypto.digest(token);
    const sealed = crypto.encrypt(token, digest);
    expect(() => crypto.decrypt(sealed, crypto.digest('another'))).toThrow();
    expect(() => createTokenCrypto(Buffer.alloc(32, 8)).decrypt(sealed, digest)).toThrow();
  });

  it('digests tokens with a keyed HMAC, not a plain hash', () => {
    const other = createTokenCrypto(Buffer.alloc(32, 8));
    expect(crypto.digest('t')).toMatch(/^[0-9a-f]{64}$/);
    expect(crypto.digest('t')).not.toBe(other.digest('t'));
    expect(crypto.digest('t')).not.toBe(apiKeyDigest('t'));
  });

  it('makes API keys of 32 random bytes with the ugs_ prefix', () => {
    expect(generateApiKey()).toMatch(/^ugs_[A-Za-z0-9_-]{43}$/);
    expect(apiKeyDigest('ugs_x')).toMatch(/^[0-9a-f]{64}$/);
  });

  it.each([
    ['hex', 'ab'.repeat(32), true],
    ['base64', Buffer.alloc(32, 1).toString('base64'), true],
    ['base64url', Buffer.alloc(32, 255).toString('base64url'), true],
    ['short hex', 'ab'.repeat(16), false],
    ['base64 of 31 bytes', Buffer.alloc(31, 1).toString('base64'), false],
    ['text', 'correct horse battery staple', false],
  ])('parses an encryption key given as %s: %s', (_case, text, valid) => {
    if (valid) expect(parseEncryptionKey(text)).toHaveLength(32);
    else expect(() => parseEncryptionKey(text)).toThrow();
  });
});

describe('resolveEncryptionKey', () => {
  it('generates <database>.key once with mode 0600 and reuses it', async () => {
    const temp = await makeTempDir();
    cleanups.push(temp.remove);
    const database = openDatabase(path.join(temp.dir, 'db.sqlite'));
    cleanups.push(() => database.close());
    const first = resolveEncryptionKey(database);
    const second = resolveEncryptionKey(database);
    expect(second.equals(first)).toBe(true);
    const keyFile = path.join(temp.dir, 'db.sqlite.key');
    expect((await stat(keyFile)).mode & 0o777).toBe(0o600);
    expect((await readFile(keyFile, 'utf8')).trim()).toBe(first.toString('hex'));
  });

  it('prefers an explicit key, and refuses PostgreSQL without one', async () => {
    const postgres = openDatabase('postgres://nobody@127.0.0.1:1/none');
    cleanups.push(() => postgres.close());
    expect(() => resolveEncryptionKey(postgres)).toThrow(/SERVICE_ENCRYPTION_KEY/);
    expect(resolveEncryptionKey(postgres, 'cd'.repeat(32)).toString('hex')).toBe('cd'.repeat(32));
    expect(() => resolveEncryptionKey(postgres, 'nope')).toThrow(/64 hex/);
  });
});
