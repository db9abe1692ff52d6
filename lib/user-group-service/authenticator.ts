/**
 * `Authorization: Token <API_KEY>` to an active API key record. Known keys are cached by digest for
 * a short TTL (5 s by default), so a hot path costs one SHA-256 and a Map lookup; the price is that a
 * revocation takes effect within that TTL. Unknown keys are not cached (an attacker could fill the
 * cache); each costs one indexed lookup.
 */
import { type ApiKeyRecord, findActiveApiKey } from './api-key-store';
import type { ServiceDatabase } from './database';
import { ServiceError } from './errors';
import { apiKeyDigest } from './token-crypto';

export const DEFAULT_API_KEY_CACHE_TTL_MS = 5_000;
const CACHE_MAX_ENTRIES = 10_000;
const AUTHORIZATION_PATTERN = /^Token +([A-Za-z0-9_\-.~+/=]{1,512}) *$/i;

export interface Authenticator {
  authenticate(authorization: string | undefined): Promise<ApiKeyRecord>;
}

export function createAuthenticator(database: ServiceDatabase, cacheTtlMs: number): Authenticator {
  const cache = new Map<string, { record: ApiKeyRecord; expiresAt: number }>();

  return {
    async authenticate(authorization) {
      if (authorization === undefined || authorization === '') {
        throw new ServiceError(
          'unauthorized',
          'missing Authorization header; send "Authorization: Token <API_KEY>"',
        );
      }
      const key = AUTHORIZATION_PATTERN.exec(authorization)?.[1];
      if (key === undefined) {
        throw new ServiceError('unauthorized', 'malformed Authorization header; expected "Token <API_KEY>"');
      }
      const digest = apiKeyDigest(key);
      const now = Date.now();
      const cached = cache.get(digest);
      if (cached && cached.expiresAt > now) return cached.record;

      const record = await findActiveApiKey(database, digest);
      if (!record) {
        cache.delete(digest);
        throw new ServiceError('unauthorized', 'unknown or revoked API key');
      }
      if (cacheTtlMs > 0) {
        if (cache.size >= CACHE_MAX_ENTRIES) cache.clear();
        cache.set(digest, { record, expiresAt: now + cacheTtlMs });
      }
      return record;
    },
  };
}
