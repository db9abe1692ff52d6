/**
 * The key that signs the audit log's seals: Ed25519, so that a verifier may hold the public key
 * alone (`npm run audit -- public-key`, then `verify --public-key <file>` anywhere). The private key
 * is AUDIT_SIGNING_KEY (64 hex characters or the base64 of the 32-byte seed), or, when unset, the
 * seed generated once into DATA_DIR/audit-signing.key, as the console's other secrets are. It is
 * never in the console's database: whoever can only write the database cannot sign a seal.
 */
import { createHash, createPrivateKey, createPublicKey, type KeyObject, sign, verify } from 'node:crypto';
import path from 'node:path';
import { generateEncryptionKey, parseEncryptionKey } from '@/lib/crypto/aes-gcm';
import type { AuditSealTable } from '@/lib/db/console-database';
import { readOrCreateSecretFile, readSecretFile } from '@/lib/secret-file';

export const SIGNING_KEY_FILE = 'audit-signing.key';

/** What checks a seal's signature: the public key, named by its id. */
export interface SealVerifier {
  keyId: string;
  publicKeyPem: string;
  verify(seal: SealFields, signature: string): boolean;
}

export interface SealSigner extends SealVerifier {
  sign(seal: SealFields): string;
}

/**
 * A seal's signed fields. `manifest_hash` (links.ts' manifestHash of the stored manifest text) is
 * signed by every seal made since 2026-11-28 (v2): the manifest, every link in its form, is then as
 * signed. Without it the payload is v1's, which left the manifest's link forms unsigned.
 */
type SealFields = Omit<AuditSealTable, 'manifest' | 'signature' | 'key_id'> & {
  settlements: number;
  manifest_hash?: string;
};

/** What a signature covers: every field of the seal, and in v2 the whole manifest's hash. */
function payloadOf(seal: SealFields): Buffer {
  return Buffer.from(
    JSON.stringify([
      seal.manifest_hash === undefined
        ? 'user-group-console audit seal v1'
        : 'user-group-console audit seal v2',
      seal.id,
      seal.after_id,
      seal.through_id,
      seal.entry_count,
      seal.settlements,
      seal.previous_hash,
      seal.head_hash,
      seal.sealed_at,
      ...(seal.manifest_hash === undefined ? [] : [seal.manifest_hash]),
    ]),
  );
}

// PKCS#8 of an Ed25519 key is this prefix and the 32-byte seed (RFC 8410).
const PKCS8_ED25519_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');

function verifierOf(publicKey: KeyObject): SealVerifier {
  const der = publicKey.export({ type: 'spki', format: 'der' });
  return {
    keyId: createHash('sha256').update(der).digest('hex').slice(0, 16),
    publicKeyPem: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
    verify: (seal, signature) => {
      try {
        return verify(null, payloadOf(seal), publicKey, Buffer.from(signature, 'base64url'));
      } catch {
        return false;
      }
    },
  };
}

function signerOf(seedText: string, source: string): SealSigner {
  let seed: Buffer;
  try {
    seed = parseEncryptionKey(seedText);
  } catch {
    throw new Error(`${source} must be 64 hex characters or the base64 of 32 bytes`);
  }
  const privateKey = createPrivateKey({
    key: Buffer.concat([PKCS8_ED25519_PREFIX, seed]),
    format: 'der',
    type: 'pkcs8',
  });
  const verifier = verifierOf(createPublicKey(privateKey));
  return {
    ...verifier,
    sign: (seal) => sign(null, payloadOf(seal), privateKey).toString('base64url'),
  };
}

/** The console's signer: AUDIT_SIGNING_KEY, or DATA_DIR/audit-signing.key (made when missing). */
export function auditSigningKey(dataDir: string, fromEnvironment: string | null): SealSigner {
  if (fromEnvironment) return signerOf(fromEnvironment, 'AUDIT_SIGNING_KEY');
  const file = path.join(dataDir, SIGNING_KEY_FILE);
  return signerOf(
    readOrCreateSecretFile(file, () => generateEncryptionKey().toString('hex')),
    `DATA_DIR/${SIGNING_KEY_FILE}`,
  );
}

/**
 * A verifier that writes nothing: from a public key (PEM), else from the signing key as the console
 * has it; null when there is none (no seal can have been made with it).
 */
export function readAuditVerifier(
  dataDir: string,
  fromEnvironment: string | null,
  publicKeyPem?: string,
): SealVerifier | null {
  if (publicKeyPem) return verifierOf(createPublicKey(publicKeyPem));
  if (fromEnvironment) return signerOf(fromEnvironment, 'AUDIT_SIGNING_KEY');
  const seed = readSecretFile(path.join(dataDir, SIGNING_KEY_FILE));
  return seed ? signerOf(seed, `DATA_DIR/${SIGNING_KEY_FILE}`) : null;
}
