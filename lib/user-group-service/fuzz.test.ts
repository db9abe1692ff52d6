/**
 * Property-based fuzzing of request bodies for all three methods: random JSON values, objects with
 * the real field names and wrong types, oversized strings, broken bytes. Whatever arrives, the
 * server never answers 5xx, and a 4xx never changes stored data (a snapshot of the tables before
 * and after each request must match).
 */
import SqliteDatabase from 'better-sqlite3';
import fc from 'fast-check';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createApiKey } from './api-keys';
import type { RunningUserGroupService } from './server';
import { call, createSqliteBackend, startTestService, type TestBackend } from './test-support';

let backend: TestBackend;
let service: RunningUserGroupService;
let reader: SqliteDatabase.Database;
let key: string;
/** Real ids and tokens, so some fuzzed rotations and deletions hit existing groups. */
const knownIds = ['seed-1', 'seed-2', 'seed-3'];
const knownTokens: string[] = [];

const snapshot = () =>
  JSON.stringify([
    reader.prepare('select * from user_groups order by team_id').all(),
    reader.prepare('select * from api_keys order by id').all(),
  ]);

beforeAll(async () => {
  backend = await createSqliteBackend();
  service = await startTestService(backend.database);
  key = (await createApiKey({ database: backend.database, environment: 'Customer' })).key;
  for (const id of knownIds) {
    const answer = await call(
      service.url,
      'GET',
      { user_group_id: id, properties: { seeded: true } },
      { key },
    );
    knownTokens.push(answer.json.user_group.token);
  }
  reader = new SqliteDatabase(backend.database, { readonly: true });
});

afterAll(async () => {
  reader?.close();
  await service?.close();
  await backend?.dispose();
});

/** Built after seeding, so the pools contain real ids and tokens. */
function requestBodies() {
  const oversized = fc.constantFrom('x'.repeat(256), 'y'.repeat(1025), 'z'.repeat(1024 * 1024 + 10));
  const scalar = fc.oneof(
    fc.string({ maxLength: 40 }),
    fc.string({ unit: 'binary', maxLength: 40 }),
    fc.integer(),
    fc.double(),
    fc.boolean(),
    fc.constant(null),
  );
  /** A value for one of the real fields: sometimes right, mostly wrong. */
  const fieldValue = fc.oneof(
    scalar,
    oversized,
    fc.constantFrom(...knownIds, ...knownTokens, '', '\u0000'),
    fc.jsonValue({ maxDepth: 3 }),
    fc.dictionary(fc.string({ maxLength: 10 }), scalar, { maxKeys: 5 }),
    fc.dictionary(fc.string({ maxLength: 4 }), fc.integer(), { minKeys: 99, maxKeys: 105 }),
    fc.array(scalar, { maxLength: 4 }),
  );
  const realFields = fc.record(
    {
      user_group_id: fieldValue,
      name: fieldValue,
      mapping: fieldValue,
      properties: fieldValue,
      current_token: fc.oneof(fieldValue, fc.constantFrom(...knownTokens)),
      extra: fc.jsonValue({ maxDepth: 2 }),
    },
    { requiredKeys: [] },
  );
  const body = fc.oneof(
    { weight: 3, arbitrary: realFields.map((value) => JSON.stringify(value)) },
    { weight: 1, arbitrary: fc.json({ maxDepth: 4 }) },
    { weight: 1, arbitrary: fc.uint8Array({ maxLength: 200 }).map((bytes) => Buffer.from(bytes)) },
    { weight: 1, arbitrary: fc.string({ maxLength: 200 }) },
    {
      weight: 1,
      arbitrary: fc.tuple(realFields, fc.nat()).map(([value, cut]) => {
        const text = JSON.stringify(value);
        return text.slice(0, cut % (text.length + 1));
      }),
    },
  );
  return body;
}

it('never answers 5xx, and a 4xx never changes stored data', async () => {
  await fc.assert(
    fc.asyncProperty(fc.constantFrom('GET', 'POST', 'DELETE'), requestBodies(), async (method, rawBody) => {
      const before = snapshot();
      const answer = await call(service.url, method, undefined, { key, rawBody });
      expect(answer.status, answer.text.slice(0, 300)).toBeLessThan(500);
      if (answer.status >= 400) {
        expect(answer.json?.success).toBe(0);
        expect(snapshot()).toBe(before);
      } else {
        expect(answer.json?.success).toBe(1);
      }
    }),
    { numRuns: 600 },
  );
});
