/**
 * The three operations on user groups. Races are settled by the database, never by in-process
 * locks, so several processes on one PostgreSQL stay correct:
 * - get-or-create: SELECT first (the common case), else INSERT ... ON CONFLICT DO NOTHING and
 *   SELECT again if another request won;
 * - rotate: one compare-and-set UPDATE ... WHERE token_digest = old RETURNING, so of concurrent
 *   rotations of one token exactly one succeeds;
 * - delete: fetch by id, compare the token digest in constant time, then delete only while the row
 *   still holds that digest (a concurrent rotation makes the delete miss: 404, nothing deleted).
 */
import { timingSafeEqual } from 'node:crypto';
import type { Clock } from '../clock';
import type { Environment, GetOrCreateRequest } from '../user-group-api/contract';
import type { ServiceDatabase } from './database';
import type { TokenCrypto } from './token-crypto';
import { prepareUserGroupQueries } from './user-group-queries';
import { createWriteBatcher } from './write-batcher';

interface UserGroup {
  teamId: number;
  environment: Environment;
  providedId: string;
  name: string;
  properties: Record<string, unknown> | null;
  token: string;
}

type RotatedUserGroup = Omit<UserGroup, 'properties'>;

export interface UserGroupStore {
  getOrCreate(
    environment: Environment,
    request: GetOrCreateRequest,
  ): Promise<{ created: boolean; userGroup: UserGroup }>;
  /** Null when no group of this environment holds the token (or a concurrent call rotated it first). */
  rotate(environment: Environment, currentToken: string): Promise<RotatedUserGroup | null>;
  /** False when the id and token do not name one group of this environment. */
  delete(environment: Environment, providedId: string, currentToken: string): Promise<boolean>;
}

/** A create can lose to a concurrent create and then to a concurrent delete; a few rounds settle it. */
const GET_OR_CREATE_ATTEMPTS = 5;
/**
 * Decrypted tokens by ciphertext, so reading a hot group skips AES-GCM setup. A rotation writes a
 * new ciphertext, so an entry never goes stale; it lives in process memory, next to the key anyway.
 */
const TOKEN_CACHE_MAX_ENTRIES = 10_000;

export function createUserGroupStore(
  database: ServiceDatabase,
  crypto: TokenCrypto,
  clock: Clock,
): UserGroupStore {
  const queries = prepareUserGroupQueries(database);
  const writes = createWriteBatcher(database.db, database.kind === 'sqlite');
  const tokenCache = new Map<string, string>();

  function decryptToken(ciphertext: string, digest: string): string {
    let token = tokenCache.get(ciphertext);
    if (token === undefined) {
      token = crypto.decrypt(ciphertext, digest);
      if (tokenCache.size >= TOKEN_CACHE_MAX_ENTRIES) tokenCache.clear();
      tokenCache.set(ciphertext, token);
    }
    return token;
  }

  async function findByProvidedId(environment: Environment, providedId: string): Promise<UserGroup | null> {
    const { rows } = await queries.selectByProvidedId({ environment, providedId });
    const row = rows[0];
    if (!row) return null;
    return {
      teamId: row.team_id,
      environment,
      providedId,
      name: row.name,
      properties: row.properties === null ? null : (JSON.parse(row.properties) as Record<string, unknown>),
      token: decryptToken(row.token_ciphertext, row.token_digest),
    };
  }

  async function insert(environment: Environment, request: GetOrCreateRequest): Promise<UserGroup | null> {
    const token = crypto.newToken();
    const tokenDigest = crypto.digest(token);
    const name = request.name ?? request.user_group_id;
    const properties = request.properties ?? null;
    const params = {
      environment,
      providedId: request.user_group_id,
      name,
      properties: properties === null ? null : JSON.stringify(properties),
      mapping: request.mapping === undefined ? null : JSON.stringify(request.mapping),
      tokenDigest,
      tokenCiphertext: crypto.encrypt(token, tokenDigest),
      now: new Date(clock.now()).toISOString(),
    };
    const { rows } = await writes.run((executor) => queries.insertIfAbsent(params, executor));
    const inserted = rows[0];
    if (!inserted) return null;
    return {
      teamId: inserted.team_id,
      environment,
      providedId: request.user_group_id,
      name,
      properties,
      token,
    };
  }

  return {
    async getOrCreate(environment, request) {
      for (let attempt = 0; attempt < GET_OR_CREATE_ATTEMPTS; attempt++) {
        const existing = await findByProvidedId(environment, request.user_group_id);
        if (existing) return { created: false, userGroup: existing };
        const created = await insert(environment, request);
        if (created) return { created: true, userGroup: created };
      }
      throw new Error('get-or-create did not settle: the group keeps being created and deleted');
    },

    async rotate(environment, currentToken) {
      // The lookup is by the digest itself, so there is nothing left to compare afterwards.
      const token = crypto.newToken();
      const tokenDigest = crypto.digest(token);
      const params = {
        environment,
        oldDigest: crypto.digest(currentToken),
        tokenDigest,
        tokenCiphertext: crypto.encrypt(token, tokenDigest),
        now: new Date(clock.now()).toISOString(),
      };
      const { rows } = await writes.run((executor) => queries.replaceToken(params, executor));
      const rotated = rows[0];
      if (!rotated) return null;
      return {
        teamId: rotated.team_id,
        environment,
        providedId: rotated.provided_id,
        name: rotated.name,
        token,
      };
    },

    async delete(environment, providedId, currentToken) {
      const tokenDigest = crypto.digest(currentToken);
      const current = (await queries.selectByProvidedId({ environment, providedId })).rows[0];
      if (!current || !digestsEqual(current.token_digest, tokenDigest)) return false;
      const params = { teamId: current.team_id, tokenDigest };
      const result = await writes.run((executor) => queries.deleteByTeamIdAndDigest(params, executor));
      return result.numAffectedRows === 1n;
    },
  };
}

/** Constant-time comparison of two hex digests, after fetching the row. */
function digestsEqual(stored: string, presented: string): boolean {
  const a = Buffer.from(stored, 'hex');
  const b = Buffer.from(presented, 'hex');
  return a.length === b.length && timingSafeEqual(a, b);
}
