/**
 * Public API-key management, used by the CLI and by the launcher. Each call opens the database
 * (SQLite path or PostgreSQL URL), migrates it, does its one job and closes it; it needs no
 * encryption key. A running server sees a new key at once and a revocation within its API key cache
 * TTL (4 s by default and at most).
 */
import { realClock } from '../clock';
import { type Environment, environmentSchema } from '../user-group-api/contract';
import {
  type ApiKeyRecord,
  type CreatedApiKey,
  insertApiKey,
  markApiKeyRevoked,
  selectApiKeys,
} from './api-key-store';
import { openDatabase, type ServiceDatabase } from './database';
import { migrateToLatest } from './migrations';

export type { ApiKeyRecord, CreatedApiKey } from './api-key-store';

async function withDatabase<T>(database: string, work: (opened: ServiceDatabase) => Promise<T>): Promise<T> {
  const opened = openDatabase(database);
  try {
    await migrateToLatest(opened.db, opened.kind);
    return await work(opened);
  } finally {
    await opened.close();
  }
}

/** Creates a key for one environment; `key` is shown here once and stored only as a digest. */
export async function createApiKey(options: {
  database: string;
  environment: Environment;
  name?: string;
}): Promise<CreatedApiKey> {
  const environment = environmentSchema.parse(options.environment);
  return withDatabase(options.database, (opened) =>
    insertApiKey(opened, environment, options.name, realClock),
  );
}

/** Every key, revoked ones included, oldest first; never the keys themselves. */
export async function listApiKeys(options: { database: string }): Promise<ApiKeyRecord[]> {
  return withDatabase(options.database, selectApiKeys);
}

/** True when an active key with this id was revoked now; false for an unknown or already revoked id. */
export async function revokeApiKey(options: { database: string; id: string }): Promise<boolean> {
  return withDatabase(options.database, (opened) => markApiKeyRevoked(opened, options.id, realClock));
}
