/**
 * The SQL of the user group operations, written with Kysely's builder and compiled once per store
 * (see prepared-query.ts). Every statement names the environment or a row the environment check
 * already found, so one environment never touches another's groups.
 */
import type { Environment } from '../user-group-api/contract';
import type { ServiceDatabase } from './database';
import { prepareQuery } from './prepared-query';

export function prepareUserGroupQueries(database: ServiceDatabase) {
  const { db } = database;
  return {
    selectByProvidedId: prepareQuery<
      { environment: Environment; providedId: string },
      {
        team_id: number;
        name: string;
        properties: string | null;
        token_digest: string;
        token_ciphertext: string;
      }
    >(database, (param) =>
      db
        .selectFrom('user_groups')
        .select(['team_id', 'name', 'properties', 'token_digest', 'token_ciphertext'])
        .where('environment', '=', param('environment'))
        .where('provided_id', '=', param('providedId')),
    ),

    /** Inserts unless the (environment, provided_id) exists; returns the new team_id or no row. */
    insertIfAbsent: prepareQuery<
      {
        environment: Environment;
        providedId: string;
        name: string;
        properties: string | null;
        mapping: string | null;
        tokenDigest: string;
        tokenCiphertext: string;
        now: string;
      },
      { team_id: number }
    >(database, (param) =>
      db
        .insertInto('user_groups')
        .values({
          environment: param('environment'),
          provided_id: param('providedId'),
          name: param('name'),
          properties: param('properties'),
          mapping: param('mapping'),
          token_digest: param('tokenDigest'),
          token_ciphertext: param('tokenCiphertext'),
          created_at: param('now'),
          updated_at: param('now'),
        })
        .onConflict((conflict) => conflict.columns(['environment', 'provided_id']).doNothing())
        .returning('team_id'),
    ),

    /**
     * Compare-and-set in one statement: the row of this environment that still holds the old
     * digest gets the new token; of concurrent rotations of one token exactly one matches.
     */
    replaceToken: prepareQuery<
      {
        environment: Environment;
        oldDigest: string;
        tokenDigest: string;
        tokenCiphertext: string;
        now: string;
      },
      { team_id: number; name: string; provided_id: string }
    >(database, (param) =>
      db
        .updateTable('user_groups')
        .set({
          token_digest: param('tokenDigest'),
          token_ciphertext: param('tokenCiphertext'),
          updated_at: param('now'),
        })
        .where('environment', '=', param('environment'))
        .where('token_digest', '=', param('oldDigest'))
        .returning(['team_id', 'name', 'provided_id']),
    ),

    /** Compare-and-delete: only while the row still holds the digest that was checked. */
    deleteByTeamIdAndDigest: prepareQuery<{ teamId: number; tokenDigest: string }, never>(database, (param) =>
      db
        .deleteFrom('user_groups')
        .where('team_id', '=', param('teamId'))
        .where('token_digest', '=', param('tokenDigest')),
    ),
  };
}
