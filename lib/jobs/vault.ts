/**
 * Tokens a job holds (the ones it rotates, the ones it was answered) are stored AES-256-GCM
 * encrypted: a fresh 96-bit IV each, and the row they belong to as associated data, so a
 * ciphertext copied to another row does not decrypt. The key comes from CONSOLE_JOB_TOKEN_KEY
 * (required when several consoles share one database) or a file under DATA_DIR, made on first use.
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import path from 'node:path';
import { readOrCreateSecretFile } from '@/lib/secret-file';
import { parseEncryptionKey } from '@/lib/user-group-service/token-crypto';

const VERSION = 'v1';
const IV_BYTES = 12;
const TAG_BYTES = 16;

export interface TokenVault {
  seal(token: string, place: string): string;
  open(sealed: string, place: string): string;
}

export function createTokenVault(key: Buffer): TokenVault {
  if (key.length !== 32) throw new Error('the job token key must be 32 bytes');
  const ivs = randomIvs();
  return {
    seal(token, place) {
      const iv = ivs();
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      cipher.setAAD(Buffer.from(place));
      const sealed = Buffer.concat([cipher.update(token, 'utf8'), cipher.final()]);
      return `${VERSION}.${Buffer.concat([iv, cipher.getAuthTag(), sealed]).toString('base64url')}`;
    },
    open(sealed, place) {
      const [version, body] = sealed.split('.');
      if (version !== VERSION || !body) throw new Error('not a sealed job token');
      const bytes = Buffer.from(body, 'base64url');
      const decipher = createDecipheriv('aes-256-gcm', key, bytes.subarray(0, IV_BYTES));
      decipher.setAAD(Buffer.from(place));
      decipher.setAuthTag(bytes.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
      return Buffer.concat([
        decipher.update(bytes.subarray(IV_BYTES + TAG_BYTES)),
        decipher.final(),
      ]).toString('utf8');
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
