/**
 * The core behaviour against a real server, run on SQLite and (when reachable) PostgreSQL:
 * the three operations, environments, races settled by the database, two instances sharing one
 * database, and data surviving a restart.
 */
import { existsSync, readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  deleteResponseSchema,
  errorResponseSchema,
  getOrCreateResponseSchema,
  rotateResponseSchema,
} from '../user-group-api/contract';
import { openDatabase } from './database';
import type { RunningUserGroupService } from './server';
import {
  call,
  createPostgresBackend,
  createSqliteBackend,
  createTestKeys,
  startTestService,
  type TestBackend,
} from './test-support';

const backends: TestBackend[] = [await createSqliteBackend()];
const postgres = await createPostgresBackend();
if (postgres) backends.push(postgres);

const TOKEN_PATTERN = /^[0-9a-f]{64}$/;

describe.each(backends)('user group service on $name', (backend) => {
  let service: RunningUserGroupService;
  let keys: { customer: string; testing: string };

  const getOrCreate = async (body: unknown, key = keys.customer, url = service.url) => {
    const answer = await call(url, 'GET', body, { key });
    expect(answer.status, answer.text).toBe(200);
    return getOrCreateResponseSchema.parse(answer.json);
  };
  const rotate = (currentToken: string, key = keys.customer, url = service.url) =>
    call(url, 'POST', { current_token: currentToken }, { key });
  const remove = (userGroupId: string, currentToken: string, key = keys.customer) =>
    call(service.url, 'DELETE', { user_group_id: userGroupId, current_token: currentToken }, { key });
  const expectNotFound = (answer: { status: number; json: unknown }) => {
    expect(answer.status).toBe(404);
    expect(errorResponseSchema.parse(answer.json).error?.code).toBe('not_found');
  };

  beforeAll(async () => {
    service = await startTestService(backend.database);
    keys = await createTestKeys(backend.database);
  });

  afterAll(async () => {
    await service?.close();
    await backend.dispose();
  });

  it('creates a group with a fresh token, the id as default name and null properties', async () => {
    const answer = await getOrCreate({ user_group_id: 'plain' });
    expect(answer.new_user_group).toBe(true);
    expect(answer.user_group).toMatchObject({ name: 'plain', provided_id: 'plain', properties: null });
    expect(answer.user_group.token).toMatch(TOKEN_PATTERN);
    expect(answer.user_group.team_id).toBeGreaterThan(0);
  });

  it('refuses ids and names that are not well-formed Unicode, so two of them never share a group', async () => {
    // Security round 3, Medium: on PostgreSQL "x\ud800y", "x\udbffy" and "x\ufffdy" were stored as
    // one text and shared one group and its token, while each answer echoed the caller's own id.
    for (const id of ['x\ud800y', 'x\udbffy', 'lone\udc00']) {
      const answer = await call(service.url, 'GET', { user_group_id: id }, { key: keys.customer });
      expect(answer.status, answer.text).toBe(400);
      expect(errorResponseSchema.parse(answer.json).error?.fields?.user_group_id).toMatch(
        /well-formed Unicode/,
      );
    }
    const named = await call(
      service.url,
      'GET',
      { user_group_id: 'named', name: 'A\ud800' },
      { key: keys.customer },
    );
    expect(named.status).toBe(400);
    // What is stored stays apart: the replacement character and a real pair are ids of their own.
    const replacement = await getOrCreate({ user_group_id: 'x\ufffdy' });
    const pair = await getOrCreate({ user_group_id: 'x\ud83d\ude00y' });
    expect(replacement.new_user_group && pair.new_user_group).toBe(true);
    expect(replacement.user_group.token).not.toBe(pair.user_group.token);
    expect(pair.user_group.provided_id).toBe('x😀y');
  });

  it('echoes name and properties on creation, and changes nothing when the id exists', async () => {
    const properties = { plan: 'pro', seats: 12, nested: { regions: ['eu', 'us'] } };
    const created = await getOrCreate({
      user_group_id: 'acme',
      name: 'Acme Inc.',
      mapping: { schema1: 'warehouse', schema2: 42 },
      properties,
    });
    expect(created.new_user_group).toBe(true);
    expect(created.user_group).toMatchObject({ name: 'Acme Inc.', provided_id: 'acme', properties });

    const again = await getOrCreate({
      user_group_id: 'acme',
      name: 'Other name',
      properties: { plan: 'free' },
    });
    expect(again.new_user_group).toBe(false);
    expect(again.user_group).toEqual(created.user_group);

    const bare = await getOrCreate({ user_group_id: 'acme' });
    expect(bare.user_group).toEqual(created.user_group);
  });

  it('rotates: a new token at once, the old one stops working, get-or-create returns the new one', async () => {
    const { user_group: group } = await getOrCreate({ user_group_id: 'rotating', name: 'Rotating' });
    const answer = await rotate(group.token);
    expect(answer.status, answer.text).toBe(200);
    const rotated = rotateResponseSchema.parse(answer.json).user_group;
    expect(rotated).toMatchObject({
      team_id: group.team_id,
      name: 'Rotating',
      provided_id: 'rotating',
      api_environment_tag: 'Customer',
    });
    expect(rotated.token).toMatch(TOKEN_PATTERN);
    expect(rotated.token).not.toBe(group.token);

    expectNotFound(await rotate(group.token));
    expectNotFound(await remove('rotating', group.token));
    expect((await getOrCreate({ user_group_id: 'rotating' })).user_group.token).toBe(rotated.token);
  });

  it('deletes only with the id and token of the same group; any mismatch is 404 and deletes nothing', async () => {
    const target = (await getOrCreate({ user_group_id: 'doomed' })).user_group;
    const other = (await getOrCreate({ user_group_id: 'bystander' })).user_group;
    const mismatches: Array<[string, string, string]> = [
      ['wrong token', 'doomed', 'f'.repeat(64)],
      ['token of another group', 'doomed', other.token],
      ['unknown id', 'no-such-group', target.token],
      ['id of another group', 'bystander', target.token],
      ['token in upper case', 'doomed', target.token.toUpperCase()],
    ];
    for (const [, id, token] of mismatches) expectNotFound(await remove(id, token));
    expectNotFound(await remove('doomed', target.token, keys.testing));

    const still = await getOrCreate({ user_group_id: 'doomed' });
    expect(still.new_user_group).toBe(false);

    const deleted = await remove('doomed', target.token);
    expect(deleted.status, deleted.text).toBe(200);
    expect(deleteResponseSchema.parse(deleted.json)).toEqual({ success: 1 });
    expectNotFound(await remove('doomed', target.token));
    expectNotFound(await rotate(target.token));
    expect((await getOrCreate({ user_group_id: 'bystander' })).user_group).toEqual(other);

    const recreated = await getOrCreate({ user_group_id: 'doomed' });
    expect(recreated.new_user_group).toBe(true);
    expect(recreated.user_group.token).not.toBe(target.token);
    expect(recreated.user_group.team_id).not.toBe(target.team_id);
  });

  it('keeps environments apart: one id per environment, invisible to the other environment', async () => {
    const customer = (await getOrCreate({ user_group_id: 'shared-id', name: 'Prod' })).user_group;
    const testing = await getOrCreate({ user_group_id: 'shared-id', name: 'Test' }, keys.testing);
    expect(testing.new_user_group).toBe(true);
    expect(testing.user_group.name).toBe('Test');
    expect(testing.user_group.team_id).not.toBe(customer.team_id);
    expect(testing.user_group.token).not.toBe(customer.token);

    expectNotFound(await rotate(customer.token, keys.testing));
    expectNotFound(await remove('shared-id', customer.token, keys.testing));
    expect((await getOrCreate({ user_group_id: 'shared-id' })).user_group).toEqual(customer);

    const rotated = await rotate(testing.user_group.token, keys.testing);
    expect(rotateResponseSchema.parse(rotated.json).user_group.api_environment_tag).toBe('Testing');
  });

  it('creates exactly one group for 50 concurrent get-or-create calls of one new id', async () => {
    const answers = await Promise.all(
      Array.from({ length: 50 }, () => getOrCreate({ user_group_id: 'stampede', name: 'Stampede' })),
    );
    expect(answers.filter((answer) => answer.new_user_group)).toHaveLength(1);
    expect(new Set(answers.map((answer) => answer.user_group.token)).size).toBe(1);
    expect(new Set(answers.map((answer) => answer.user_group.team_id)).size).toBe(1);
  });

  it('lets exactly one of 20 concurrent rotations of one token win; the rest get 404', async () => {
    const { user_group: group } = await getOrCreate({ user_group_id: 'contested' });
    const answers = await Promise.all(Array.from({ length: 20 }, () => rotate(group.token)));
    const winners = answers.filter((answer) => answer.status === 200);
    expect(winners).toHaveLength(1);
    expect(answers.filter((answer) => answer.status === 404)).toHaveLength(19);
    const winner = rotateResponseSchema.parse(winners[0]?.json).user_group;
    expect((await getOrCreate({ user_group_id: 'contested' })).user_group.token).toBe(winner.token);
  });

  it('stays correct with two instances on one database (races settled by the database)', async () => {
    const second = await startTestService(backend.database);
    try {
      const urls = [service.url, second.url];
      const answers = await Promise.all(
        Array.from({ length: 40 }, (_, index) =>
          getOrCreate({ user_group_id: 'two-instances' }, keys.customer, urls[index % 2]),
        ),
      );
      expect(answers.filter((answer) => answer.new_user_group)).toHaveLength(1);
      expect(new Set(answers.map((answer) => answer.user_group.token)).size).toBe(1);

      const token = answers[0]?.user_group.token ?? '';
      const rotations = await Promise.all(
        Array.from({ length: 20 }, (_, index) => rotate(token, keys.customer, urls[index % 2])),
      );
      expect(rotations.filter((answer) => answer.status === 200)).toHaveLength(1);
      expect(rotations.filter((answer) => answer.status === 404)).toHaveLength(19);
    } finally {
      await second.close();
    }
  });

  it('keeps its data across a restart', async () => {
    const before = (await getOrCreate({ user_group_id: 'durable', properties: { a: 1 } })).user_group;
    await service.close();
    service = await startTestService(backend.database);
    const after = await getOrCreate({ user_group_id: 'durable' });
    expect(after.new_user_group).toBe(false);
    expect(after.user_group).toEqual(before);
  });

  it('stores no usable token or API key: a stolen database yields neither', async () => {
    const tokens = [
      (await getOrCreate({ user_group_id: 'at-rest' })).user_group.token,
      (await getOrCreate({ user_group_id: 'at-rest-2' }, keys.testing)).user_group.token,
    ];
    const secrets = [...tokens, keys.customer, keys.testing];
    const opened = openDatabase(backend.database);
    try {
      const dump = JSON.stringify([
        await opened.db.selectFrom('user_groups').selectAll().execute(),
        await opened.db.selectFrom('api_keys').selectAll().execute(),
      ]);
      for (const secret of secrets) expect(dump).not.toContain(secret);
      expect(dump).toContain('at-rest');
    } finally {
      await opened.close();
    }
    if (backend.name === 'sqlite') {
      const files = [backend.database, `${backend.database}-wal`].filter((file) => existsSync(file));
      const bytes = Buffer.concat(files.map((file) => readFileSync(file))).toString('latin1');
      for (const secret of secrets) expect(bytes).not.toContain(secret);
    }
  });

  it('refuses to start with another encryption key than the one the database was created with', async () => {
    await expect(startTestService(backend.database, { encryptionKey: 'b'.repeat(64) })).rejects.toThrow(
      /does not match/,
    );
  });
});
