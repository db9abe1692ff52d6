/**
 * The one AES-256-GCM of the project, for secrets at rest: the service's stored tokens
 * (lib/user-group-service/token-crypto.ts) and the tokens bulk jobs hold (lib/jobs/vault.ts). A
 * sealed value is IV (96 bits, fresh each time), tag and ciphertext, bound to associated data that
 * names where it belongs, so a ciphertext moved elsewhere does not open. Each user keeps its own
 * text format around these bytes (what is stored already must keep opening).
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

export const KEY_BYTES = 32;
export const IV_BYTES = 12;
const TAG_BYTES = 16;

/** Accepts 64 hex characters or the base64 (or base64url) of exactly 32 bytes. */
export function parseEncryptionKey(text: string): Buffer {
  const trimmed = text.trim();
  if (/^[0-9a-fA-F]{64}$/.test(trimmed)) return Buffer.from(trimmed, 'hex');
  if (/^[A-Za-z0-9+/_-]{43}=?$/.test(trimmed)) {
    const decoded = Buffer.from(trimmed.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
    if (decoded.length === KEY_BYTES) return decoded;
  }
  throw new Error('the encryption key must be 64 hex characters or the base64 of 32 bytes');
}

export function generateEncryptionKey(): Buffer {
  return randomBytes(KEY_BYTES);
}

/** IV, tag and ciphertext of `plaintext` under `key`, bound to `associated`. */
export function seal(key: Buffer, plaintext: string, associated: string, iv: Buffer = randomBytes(IV_BYTES)) {
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(Buffer.from(associated, 'utf8'));
  const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), body]);
}

/** The plaintext of `sealed`; throws when the key, the associated data or a byte is wrong. */
export function open(key: Buffer, sealed: Buffer, associated: string): string {
  const decipher = createDecipheriv('aes-256-gcm', key, sealed.subarray(0, IV_BYTES));
  decipher.setAAD(Buffer.from(associated, 'utf8'));
  decipher.setAuthTag(sealed.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
  return Buffer.concat([decipher.update(sealed.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString(
    'utf8',
  );
}
