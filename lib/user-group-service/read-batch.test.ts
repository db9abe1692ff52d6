/**
 * Reads of one event-loop turn share one SQLite read transaction (database.ts, createReadBatcher):
 * each gets its own rows, and none sees a write that a transaction has not committed yet.
 */
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase, type ServiceDatabase } from './database';
import { migrateToLatest } from './migrations';
import { makeTempDir } from './test-support';
import { prepareUserGroupQueries } from './user-group-queries';

let database: ServiceDatabase;
let removeDir: () => Promise<void>;

beforeEach(async () => {
  const temp = await makeTempDir();
  removeDir = temp.remove;
  database = openDatabase(path.join(temp.dir, 'service.sqlite'));
  await migrateToLatest(database.db, database.kind);
});

afterEach(async () => {
  await database.close();
  await removeDir();
});

const group = (providedId: string) => ({
  environment: 'Customer' as const,
  providedId,
  name: `name of ${providedId}`,
  properties: providedId === 'a' ? '{"plan":"pro"}' : null,
  mapping: null,
  tokenDigest: `digest-${providedId}`,
  tokenCiphertext: `ciphertext-${providedId}`,
  now: '2026-11-25T00:00:00.000Z',
});

describe('reads of one turn', () => {
  it('each get their own rows, keyed by column, in one turn', async () => {
    const queries = prepareUserGroupQueries(database);
    for (const id of ['a', 'b', 'c']) await queries.insertIfAbsent(group(id));
    const results = await Promise.all(
      ['a', 'b', 'missing', 'c', 'a'].map((providedId) =>
        queries.selectByProvidedId({ environment: 'Customer', providedId }),
      ),
    );
    expect(results.map(({ rows }) => rows.map((row) => row.name))).toEqual([
      ['name of a'],
      ['name of b'],
      [],
      ['name of c'],
      ['name of a'],
    ]);
    expect(results[0]?.rows[0]).toEqual({
      team_id: expect.any(Number),
      name: 'name of a',
      properties: '{"plan":"pro"}',
      token_digest: 'digest-a',
      token_ciphertext: 'ciphertext-a',
    });
    // The environment is part of the lookup.
    const other = await queries.selectByProvidedId({ environment: 'Testing', providedId: 'a' });
    expect(other.rows).toEqual([]);
  });

  it('never see a write of a transaction that is still open, nor one rolled back', async () => {
    const queries = prepareUserGroupQueries(database);
    let reads: Array<Promise<{ rows: unknown[] }>> = [];
    const rolledBack = database.db
      .transaction()
      .execute(async (transaction) => {
        await queries.insertIfAbsent(group('uncommitted'), transaction);
        // Reads asked for while the transaction is open, then a few turns for them to run.
        reads = [1, 2, 3].map(() =>
          queries.selectByProvidedId({ environment: 'Customer', providedId: 'uncommitted' }),
        );
        for (let turn = 0; turn < 5; turn++) await new Promise((resolve) => setImmediate(resolve));
        throw new Error('roll back');
      })
      .catch((error: Error) => error.message);
    expect(await rolledBack).toBe('roll back');
    const results = await Promise.all(reads);
    expect(results.map(({ rows }) => rows.length)).toEqual([0, 0, 0]);
  });
});
