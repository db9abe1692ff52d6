/**
 * The three operations on user groups. Races are settled by the database, never by in-process
 * locks, so several processes on one PostgreSQL stay correct:
 * - get-or-create: SELECT first (the common case), else INSERT ... ON CONFLICT DO NOTHING and
 *   SELECT again if another request won;
 * - rotate and delete: compare-and-set on the old token digest, so of concurrent calls with one
 *   token exactly one succeeds.
 */
import { timingSafeEqual } from 'node:crypto';
import type { Environment, GetOrCreateRequest } from '../user-group-api/contract';
import type { ServiceDatabase } from './database';
import type { TokenCrypto } from './token-crypto';

export interface UserGroup {
  teamId: number;
  environment: Environment;
  providedId: string;
  name: string;
  properties: Record<string, unknown> | null;
  token: string;
}

export interface RotatedUserGroup {
  teamId: number;
  environment: Environment;
  providedId: string;
  name: string;
  token: string;
}

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

export function createUserGroupStore({ db }: ServiceDatabase, crypto: TokenCrypto): UserGroupStore {
  async function findByProvidedId(environment: Environment, providedId: string): Promise<UserGroup | null> {
    const row = await db
      .selectFrom('user_groups')
      .select(['team_id', 'name', 'properties', 'token_digest', 'token_ciphertext'])
      .where('environment', '=', environment)
      .where('provided_id', '=', providedId)
      .executeTakeFirst();
    if (!row) return null;
    return {
      teamId: row.team_id,
      environment,
      providedId,
      name: row.name,
      properties: row.properties === null ? null : (JSON.parse(row.properties) as Record<string, unknown>),
      token: crypto.decrypt(row.token_ciphertext, row.token_digest),
    };
  }

  async function insert(environment: Environment, request: GetOrCreateRequest): Promise<UserGroup | null> {
    const token = crypto.newToken();
    const digest = crypto.digest(token);
    const now = new Date().toISOString();
    const name = request.name ?? request.user_group_id;
    const properties = request.properties ?? null;
    const inserted = await db
      .insertInto('user_groups')
      .values({
        environment,
        provided_id: request.user_group_id,
        name,
        properties: properties === null ? null : JSON.stringify(properties),
        mapping: request.mapping === undefined ? null : JSON.stringify(request.mapping),
        token_digest: digest,
        token_ciphertext: crypto.encrypt(token, digest),
        created_at: now,
        updated_at: now,
      })
      .onConflict((conflict) => conflict.columns(['environment', 'provided_id']).doNothing())
      .returning('team_id')
      .executeTakeFirst();
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
      const oldDigest = crypto.digest(currentToken);
      const current = await db
        .selectFrom('user_groups')
        .select(['team_id', 'token_digest'])
        .where('environment', '=', environment)
        .where('token_digest', '=', oldDigest)
        .executeTakeFirst();
      if (!current || !digestsEqual(current.token_digest, oldDigest)) return null;

      const token = crypto.newToken();
      const digest = crypto.digest(token);
      const rotated = await db
        .updateTable('user_groups')
        .set({
          token_digest: digest,
          token_ciphertext: crypto.encrypt(token, digest),
          updated_at: new Date().toISOString(),
        })
        .where('team_id', '=', current.team_id)
        .where('token_digest', '=', oldDigest)
        .returning(['team_id', 'name', 'provided_id'])
        .executeTakeFirst();
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
      const digest = crypto.digest(currentToken);
      const current = await db
        .selectFrom('user_groups')
        .select(['team_id', 'token_digest'])
        .where('environment', '=', environment)
        .where('provided_id', '=', providedId)
        .executeTakeFirst();
      if (!current || !digestsEqual(current.token_digest, digest)) return false;
      const deleted = await db
        .deleteFrom('user_groups')
        .where('team_id', '=', current.team_id)
        .where('token_digest', '=', digest)
        .executeTakeFirst();
      return deleted.numDeletedRows === 1n;
    },
  };
}

/** Constant-time comparison of two hex digests, after fetching the row. */
function digestsEqual(stored: string, presented: string): boolean {
  const a = Buffer.from(stored, 'hex');
  const b = Buffer.from(presented, 'hex');
  return a.length === b.length && timingSafeEqual(a, b);
}
