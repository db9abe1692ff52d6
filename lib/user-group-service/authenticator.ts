/**
 * `Authorization: Token <API_KEY>` to an active API key record. Known keys are cached in process
 * memory for a short TTL (4 s by default and at most), so the hot path is one Map lookup; the price is that a
 * revocation takes effect within that TTL. Unknown keys are not cached (an attacker could fill the
 * cache); each costs a SHA-256 and one indexed lookup of the digest.
 */
import type { Clock } from '../clock';
import { type ApiKeyRecord, findActiveApiKey } from './api-key-store';
import type { ServiceDatabase } from './database';
import { ServiceError } from './errors';
import { apiKeyDigest } from './token-crypto';

export const DEFAULT_API_KEY_CACHE_TTL_MS = 4_000;
/**
 * Several instances cache keys each: a revoked key is refused by every one within this, plus the
 * time a request takes. The promise is 5 s (README, `keys revoke`): a second is left for the rest.
 */
const MAX_API_KEY_CACHE_TTL_MS = 4_000;
/** What the README and `keys revoke` promise. */
export const REVOCATION_PROMISE_MS = 5_000;
const CACHE_MAX_ENTRIES = 10_000;
const AUTHORIZATION_PATTERN = /^Token +([A-Za-z0-9_\-.~+/=]{1,512}) *$/i;

export interface Authenticator {
  authenticate(authorization: string | undefined): Promise<ApiKeyRecord>;
}

export function createAuthenticator(
  database: ServiceDatabase,
  requestedTtlMs: number,
  clock: Clock,
): Authenticator {
  const cacheTtlMs = Math.min(requestedTtlMs, MAX_API_KEY_CACHE_TTL_MS);
  // Keyed by the presented key: it is in memory for the request anyway, and this skips hashing.
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
      const now = clock.now();
      const cached = cache.get(key);
      if (cached && cached.expiresAt > now) return cached.record;

      const record = await findActiveApiKey(database, apiKeyDigest(key));
      if (!record) {
        cache.delete(key);
        throw new ServiceError('unauthorized', 'unknown or revoked API key');
      }
      if (cacheTtlMs > 0) {
        if (cache.size >= CACHE_MAX_ENTRIES) cache.clear();
        cache.set(key, { record, expiresAt: now + cacheTtlMs });
      }
      return record;
    },
  };
}
