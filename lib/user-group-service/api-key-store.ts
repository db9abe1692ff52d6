/** API keys in the database: stored only as SHA-256 digests, revoked by stamping revoked_at. */
import { randomBytes } from 'node:crypto';
import type { Clock } from '../clock';
import type { Environment } from '../user-group-api/contract';
import type { ServiceDatabase } from './database';
import { apiKeyDigest, generateApiKey } from './token-crypto';

export interface ApiKeyRecord {
  id: string;
  environment: Environment;
  name: string;
  createdAt: string;
  revokedAt: string | null;
}

/** A new key: its record plus the key itself, which exists only in this value. */
export interface CreatedApiKey {
  id: string;
  key: string;
  environment: Environment;
  name: string;
}

export async function insertApiKey(
  { db }: ServiceDatabase,
  environment: Environment,
  name: string | undefined,
  clock: Clock,
): Promise<CreatedApiKey> {
  const id = `key_${randomBytes(8).toString('hex')}`;
  const key = generateApiKey();
  const keyName = name ?? `${environment} key`;
  await db
    .insertInto('api_keys')
    .values({
      id,
      key_digest: apiKeyDigest(key),
      environment,
      name: keyName,
      created_at: new Date(clock.now()).toISOString(),
      revoked_at: null,
    })
    .execute();
  return { id, key, environment, name: keyName };
}

export async function selectApiKeys({ db }: ServiceDatabase): Promise<ApiKeyRecord[]> {
  const rows = await db
    .selectFrom('api_keys')
    .select(['id', 'environment', 'name', 'created_at', 'revoked_at'])
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  return rows.map(toRecord);
}

/** True when the key existed and was active; revoking twice or an unknown id gives false. */
export async function markApiKeyRevoked({ db }: ServiceDatabase, id: string, clock: Clock): Promise<boolean> {
  const result = await db
    .updateTable('api_keys')
    .set({ revoked_at: new Date(clock.now()).toISOString() })
    .where('id', '=', id)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return result.numUpdatedRows === 1n;
}

/** The active key with this digest, or null (unknown or revoked). */
export async function findActiveApiKey(
  { db }: ServiceDatabase,
  digest: string,
): Promise<ApiKeyRecord | null> {
  const row = await db
    .selectFrom('api_keys')
    .select(['id', 'environment', 'name', 'created_at', 'revoked_at'])
    .where('key_digest', '=', digest)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return row ? toRecord(row) : null;
}

function toRecord(row: {
  id: string;
  environment: Environment;
  name: string;
  created_at: string;
  revoked_at: string | null;
}): ApiKeyRecord {
  return {
    id: row.id,
    environment: row.environment,
    name: row.name,
    createdAt: row.created_at,
    revokedAt: row.revoked_at,
  };
}
