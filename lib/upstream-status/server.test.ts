import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { realClock, testClock } from '@/lib/clock';
import type { Environment } from '@/lib/environments';
import { createUserGroupApi, UpstreamError, type UserGroupApi } from '@/lib/user-group-api/client';
import type { RunningUserGroupService } from '@/lib/user-group-service/index';
import { createTestKeys, makeTempDir, startTestService } from '@/lib/user-group-service/test-support';
import { createUpstreamProbe, PROBE_FRESH_MS } from './server';

/** A client whose rotate answers what the test says, counting calls. */
function scripted(outcomes: (UpstreamError | 'ok')[]) {
  let calls = 0;
  const api = {
    rotate: async () => {
      const outcome = outcomes[Math.min(calls, outcomes.length - 1)];
      calls++;
      if (outcome === 'ok') return {} as never;
      throw outcome;
    },
  } as unknown as UserGroupApi;
  return { api, calls: () => calls };
}

const failure = (kind: UpstreamError['kind'], status?: number) => new UpstreamError(kind, kind, { status });

describe('the upstream probe', () => {
  it.each([
    [failure('invalid_request', 400), 'answering'],
    [failure('not_found', 404), 'answering'],
    [failure('unauthorized', 401), 'key_refused'],
    [failure('rate_limited', 429), 'rate_limited'],
    [failure('unreachable'), 'not_answering'],
    [failure('timeout'), 'not_answering'],
    [failure('failed', 503), 'failing'],
    [failure('malformed', 200), 'failing'],
  ] as const)('reads %s as %s', async (error, state) => {
    const { api } = scripted([error]);
    expect((await createUpstreamProbe(() => api, testClock()).status('Customer')).state).toBe(state);
  });

  it('keeps an answer a few seconds, shares a probe in flight, and says since when it is in trouble', async () => {
    const clock = testClock(Date.parse('2026-11-24T10:40:00Z'));
    const { api, calls } = scripted([
      failure('invalid_request'),
      failure('unreachable'),
      failure('unreachable'),
      'ok',
    ]);
    const probe = createUpstreamProbe(() => api, clock);
    const [first, same] = await Promise.all([probe.status('Customer'), probe.status('Customer')]);
    expect(first).toBe(same);
    expect(first).toEqual({
      environment: 'Customer',
      state: 'answering',
      checkedAt: '2026-11-24T10:40:00.000Z',
      lastAnswerAt: '2026-11-24T10:40:00.000Z',
      troubleSince: null,
    });
    await clock.advance(PROBE_FRESH_MS - 1);
    await probe.status('Customer');
    expect(calls()).toBe(1);
    await clock.advance(1);
    expect(await probe.status('Customer')).toMatchObject({
      state: 'not_answering',
      lastAnswerAt: '2026-11-24T10:40:00.000Z',
      troubleSince: '2026-11-24T10:40:05.000Z',
    });
    await clock.advance(60_000);
    expect(await probe.status('Customer')).toMatchObject({
      state: 'not_answering',
      checkedAt: '2026-11-24T10:41:05.000Z',
      troubleSince: '2026-11-24T10:40:05.000Z',
    });
    await clock.advance(60_000);
    expect(await probe.status('Customer')).toMatchObject({ state: 'answering', troubleSince: null });
  });

  it('asks nothing of an environment without an API key', async () => {
    const probe = createUpstreamProbe((environment: Environment) => {
      throw new Error(`no key for ${environment}`);
    }, testClock());
    expect(await probe.status('Testing')).toEqual({
      environment: 'Testing',
      state: 'not_configured',
      checkedAt: null,
      lastAnswerAt: null,
      troubleSince: null,
    });
  });
});

describe('the probe against the built-in service', () => {
  let temp: Awaited<ReturnType<typeof makeTempDir>>;
  let service: RunningUserGroupService;
  let keys: { customer: string; testing: string };
  let database: string;
  beforeAll(async () => {
    temp = await makeTempDir();
    database = path.join(temp.dir, 'service.sqlite');
    keys = await createTestKeys(database);
    service = await startTestService(database);
  });
  afterAll(async () => {
    await service?.close();
    await temp?.remove();
  });

  it('answering with a good key, refused with a bad one, not answering when gone; it writes nothing', async () => {
    const changes = () => {
      const db = new Database(database, { readonly: true });
      try {
        return db.prepare('select count(*) as groups, max(updated_at) as last from user_groups').get();
      } finally {
        db.close();
      }
    };
    const client = (apiKey: string, baseUrl = service.url) =>
      createUserGroupApi({ baseUrl, apiKey, timeoutMs: 2_000, clock: realClock });
    const probe = createUpstreamProbe(
      (environment) => (environment === 'Customer' ? client(keys.customer) : client('not-a-key')),
      testClock(),
    );
    await client(keys.customer).getOrCreate({ user_group_id: 'probe-neighbour' });
    const before = changes();
    // Refused at the fields check (400), after the key and before any group is looked up.
    await expect(client(keys.customer).rotate({ current_token: '' })).rejects.toMatchObject({
      kind: 'invalid_request',
    });
    expect((await probe.status('Customer')).state).toBe('answering');
    expect((await probe.status('Testing')).state).toBe('key_refused');
    expect(changes()).toEqual(before);
    const closed = createUpstreamProbe(() => client(keys.customer, 'http://127.0.0.1:9'), testClock());
    expect((await closed.status('Customer')).state).toBe('not_answering');
  });
});
