/**
 * Tokens a job holds (the ones it rotates, the ones it was answered) are stored AES-256-GCM
 * encrypted: a fresh 96-bit IV each, and the row they belong to as associated data, so a
 * ciphertext copied to another row does not decrypt. The key comes from CONSOLE_JOB_TOKEN_KEY
 * (required when several consoles share one database) or a file under DATA_DIR, made on first use.
 */
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { IV_BYTES, KEY_BYTES, open, parseEncryptionKey, seal } from '@/lib/crypto/aes-gcm';
import { readOrCreateSecretFile } from '@/lib/secret-file';

const VERSION = 'v1';

export interface TokenVault {
  seal(token: string, place: string): string;
  open(sealed: string, place: string): string;
}

export function createTokenVault(key: Buffer): TokenVault {
  if (key.length !== KEY_BYTES) throw new Error('the job token key must be 32 bytes');
  const ivs = randomIvs();
  return {
    seal: (token, place) => `${VERSION}.${seal(key, token, place, ivs()).toString('base64url')}`,
    open(sealed, place) {
      const [version, body] = sealed.split('.');
      if (version !== VERSION || !body) throw new Error('not a sealed job token');
      return open(key, Buffer.from(body, 'base64url'), place);
    },
  };
}

/**
 * Fresh random IVs, drawn from a pool filled 256 at a time: a bulk job seals a token per row, and
 * one call into the system's random source per IV cost more than the encryption.
 */
function randomIvs(): () => Buffer {
  const POOLED = 256;
  let pool = Buffer.alloc(0);
  let used = 0;
  return () => {
    if (used === pool.length) {
      pool = randomBytes(IV_BYTES * POOLED);
      used = 0;
    }
    used += IV_BYTES;
    return pool.subarray(used - IV_BYTES, used);
  };
}

/** The key from the environment, or the one kept in DATA_DIR/job-token.key (0600). */
export function jobTokenKey(dataDir: string, fromEnvironment: string | undefined): Buffer {
  const text =
    fromEnvironment ??
    readOrCreateSecretFile(path.join(dataDir, 'job-token.key'), () => randomBytes(32).toString('hex'));
  try {
    return parseEncryptionKey(text);
  } catch {
    throw new Error(
      `${fromEnvironment ? 'CONSOLE_JOB_TOKEN_KEY' : 'DATA_DIR/job-token.key'} must be 64 hex characters or the base64 of 32 bytes`,
    );
  }
}
