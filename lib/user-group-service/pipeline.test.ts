/**
 * The request pipeline against a real server (SQLite): the documented order of the checks,
 * X-Request-Id on every answer, and the operations that need no API key.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  deleteResponseSchema,
  getOrCreateResponseSchema,
  rotateResponseSchema,
} from '../user-group-api/contract';
import { createApiKey } from './api-keys';
import type { RunningUserGroupService } from './server';
import {
  type CallOptions,
  call,
  createSqliteBackend,
  startTestService,
  type TestBackend,
} from './test-support';

let backend: TestBackend;
let service: RunningUserGroupService;
let key: string;

beforeAll(async () => {
  backend = await createSqliteBackend();
  service = await startTestService(backend.database);
  key = (await createApiKey({ database: backend.database, environment: 'Customer' })).key;
});

afterAll(async () => {
  await service?.close();
  await backend?.dispose();
});

describe('the order of the checks: path → method → auth → content type → size → JSON → schema', () => {
  const cases: Array<[string, string, string, CallOptions, number]> = [
    ['unknown path beats a bad method and no auth', '/nope', 'PUT', {}, 404],
    ['bad method beats no auth', '/api/user', 'PUT', {}, 405],
    [
      'no auth beats a bad content type',
      '/api/user',
      'GET',
      { headers: { 'content-type': 'text/plain' } },
      401,
    ],
    [
      'bad content type beats an oversized body',
      '/api/user',
      'GET',
      { key: 'VALID', headers: { 'content-type': 'text/plain' }, rawBody: Buffer.alloc(2 * 1024 * 1024) },
      415,
    ],
    [
      'oversized body beats malformed JSON',
      '/api/user',
      'GET',
      { key: 'VALID', rawBody: Buffer.alloc(2 * 1024 * 1024) },
      413,
    ],
    ['malformed JSON', '/api/user', 'GET', { key: 'VALID', rawBody: '{' }, 400],
  ];
  it.each(cases)('%s', async (_case, path, method, options, status) => {
    const withKey = options.key === 'VALID' ? { ...options, key } : options;
    expect((await call(service.url, method, undefined, withKey, path)).status).toBe(status);
  });
});

describe('X-Request-Id', () => {
  it('honours a sane incoming id and replaces an odd one, on success and error answers', async () => {
    const sane = await call(
      service.url,
      'GET',
      { user_group_id: 'rid' },
      { key, headers: { 'x-request-id': 'req-42.a:b_c' } },
    );
    expect(sane.headers['x-request-id']).toBe('req-42.a:b_c');
    for (const odd of ['has space', 'x'.repeat(129), 'quote"d']) {
      const answer = await call(service.url, 'PUT', {}, { headers: { 'x-request-id': odd } });
      expect(answer.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    }
    expect((await call(service.url, 'GET', {}, {}, '/nope')).headers['x-request-id']).toMatch(
      /^[0-9a-f-]{36}$/,
    );
  });
});

describe('unauthenticated operations', () => {
  it('GET /healthz answers 200 (liveness: no I/O; /readyz asks the database)', async () => {
    const answer = await call(service.url, 'GET', undefined, { headers: { 'content-type': '' } }, '/healthz');
    expect(answer.status).toBe(200);
    expect(answer.json).toEqual({ success: 1, status: 'ok' });
  });

  it('GET /openapi.json serves the OpenAPI 3.1 document', async () => {
    const answer = await call(service.url, 'GET', undefined, {}, '/openapi.json');
    expect(answer.status).toBe(200);
    expect(answer.json.openapi).toMatch(/^3\.1\./);
    expect(Object.keys(answer.json.paths)).toEqual(
      expect.arrayContaining(['/api/user', '/healthz', '/openapi.json']),
    );
    // The documented examples are answers the contract accepts.
    const example = (method: string) =>
      answer.json.paths['/api/user'][method].responses['200'].content['application/json'].example;
    expect(getOrCreateResponseSchema.safeParse(example('get')).success).toBe(true);
    expect(rotateResponseSchema.safeParse(example('post')).success).toBe(true);
    expect(deleteResponseSchema.safeParse(example('delete')).success).toBe(true);
  });
});
