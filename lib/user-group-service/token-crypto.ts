/**
 * Secrets at rest. A stolen database yields no usable token or API key:
 * - user group tokens are stored AES-256-GCM encrypted (random 96-bit IV per token, the lookup digest
 *   as associated data so a ciphertext cannot be moved to another row), and found by an
 *   HMAC-SHA256 digest whose key is derived from the encryption key with HKDF;
 * - API keys are stored only as SHA-256 digests (they are 256-bit random, so no slow hash is needed).
 */
import { createHash, createHmac, hkdfSync, randomBytes } from 'node:crypto';
import { KEY_BYTES, open, seal } from '../crypto/aes-gcm';

export { generateEncryptionKey, parseEncryptionKey } from '../crypto/aes-gcm';

const TOKEN_BYTES = 32;
const CIPHERTEXT_VERSION = 'v1';

const API_KEY_PREFIX = 'ugs_';

export interface TokenCrypto {
  /** A new user group token: 256 random bits as 64 lowercase hex characters. */
  newToken(): string;
  /** The lookup digest of a token (hex HMAC-SHA256). */
  digest(token: string): string;
  encrypt(token: string, digest: string): string;
  decrypt(ciphertext: string, digest: string): string;
  /** A value that identifies the key without revealing it, stored to catch a wrong key at start. */
  keyCheck(): string;
}

export function createTokenCrypto(encryptionKey: Buffer): TokenCrypto {
  if (encryptionKey.length !== KEY_BYTES) throw new Error('the encryption key must be 32 bytes');
  const hmacKey = Buffer.from(hkdfSync('sha256', encryptionKey, '', 'user-group-token-digest/v1', 32));
  const checkKey = Buffer.from(hkdfSync('sha256', encryptionKey, '', 'user-group-key-check/v1', 32));

  return {
    newToken: () => randomBytes(TOKEN_BYTES).toString('hex'),
    digest: (token) => createHmac('sha256', hmacKey).update(token, 'utf8').digest('hex'),
    encrypt: (token, digest) =>
      `${CIPHERTEXT_VERSION}:${seal(encryptionKey, token, digest).toString('base64')}`,
    decrypt(ciphertext, digest) {
      const [version, sealed] = ciphertext.split(':');
      if (version !== CIPHERTEXT_VERSION || sealed === undefined) {
        throw new Error('unknown token ciphertext format');
      }
      return open(encryptionKey, Buffer.from(sealed, 'base64'), digest);
    },
    keyCheck: () => createHmac('sha256', checkKey).update('key-check').digest('hex'),
  };
}

/** A new API key: `ugs_` + 32 random bytes as base64url (shown once, stored as a digest). */
export function generateApiKey(): string {
  return `${API_KEY_PREFIX}${randomBytes(32).toString('base64url')}`;
}

export function apiKeyDigest(apiKey: string): string {
  return createHash('sha256').update(apiKey, 'utf8').digest('hex');
}
