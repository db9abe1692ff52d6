/**
 * Every error code of the service against a real server (SQLite), as tables of cases: status, code,
 * per-field messages, and the Allow and Retry-After headers.
 */
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorResponseSchema } from '../user-group-api/contract';
import { createApiKey, revokeApiKey } from './api-keys';
import type { RunningUserGroupService } from './server';
import { call, createSqliteBackend, startTestService, type TestBackend } from './test-support';

let backend: TestBackend;
let service: RunningUserGroupService;
let key: string;

beforeAll(async () => {
  backend = await createSqliteBackend();
  service = await startTestService(backend.database, { apiKeyCacheTtlMs: 0 });
  key = (await createApiKey({ database: backend.database, environment: 'Customer' })).key;
});

afterAll(async () => {
  await service?.close();
  await backend?.dispose();
});

function expectError(answer: { status: number; json: unknown; text: string }, status: number, code: string) {
  expect(answer.status, answer.text).toBe(status);
  const body = errorResponseSchema.parse(answer.json);
  expect(body.error?.code).toBe(code);
  expect(body.error?.message).toEqual(expect.any(String));
  return body;
}

describe('400 invalid_request', () => {
  const bodyCases: Array<[string, string, string | Buffer]> = [
    ['malformed JSON', 'GET', '{"user_group_id": '],
    ['an empty body', 'GET', ''],
    ['a JSON array', 'GET', '[{"user_group_id":"a"}]'],
    ['JSON null', 'POST', 'null'],
    ['a JSON number', 'DELETE', '42'],
    ['a JSON string', 'GET', '"acme"'],
    [
      'JSON nested deeper than 64 levels',
      'GET',
      `{"user_group_id":"a","properties":${'{"a":'.repeat(70)}1${'}'.repeat(70)}}`,
    ],
  ];
  it.each(bodyCases)('for %s', async (_case, method, rawBody) => {
    const body = expectError(
      await call(service.url, method, undefined, { key, rawBody }),
      400,
      'invalid_request',
    );
    expect(body.error?.fields).toBeUndefined();
  });

  const longString = 'x'.repeat(256);
  const tooManyEntries = Object.fromEntries(
    Array.from({ length: 101 }, (_, index) => [`schema${index}`, index]),
  );
  const fieldCases: Array<[string, string, unknown, Record<string, RegExp>]> = [
    ['GET without user_group_id', 'GET', { name: 'x' }, { user_group_id: /required/ }],
    ['GET with an empty user_group_id', 'GET', { user_group_id: '' }, { user_group_id: /empty/ }],
    ['GET with a numeric user_group_id', 'GET', { user_group_id: 7 }, { user_group_id: /string/ }],
    [
      'GET with a 256-character user_group_id',
      'GET',
      { user_group_id: longString },
      { user_group_id: /255/ },
    ],
    ['GET with a NUL in user_group_id', 'GET', { user_group_id: 'a\u0000b' }, { user_group_id: /NUL/ }],
    ['GET with a 256-character name', 'GET', { user_group_id: 'a', name: longString }, { name: /255/ }],
    ['GET with a numeric name', 'GET', { user_group_id: 'a', name: 1 }, { name: /string/ }],
    ['GET with an array mapping', 'GET', { user_group_id: 'a', mapping: [] }, { mapping: /object/ }],
    [
      'GET with a boolean data source',
      'GET',
      { user_group_id: 'a', mapping: { schema1: true } },
      { 'mapping.schema1': /data source/ },
    ],
    [
      'GET with a fractional data source',
      'GET',
      { user_group_id: 'a', mapping: { schema1: 'ok', schema2: 1.5 } },
      { 'mapping.schema2': /data source/ },
    ],
    [
      'GET with 101 mapping entries',
      'GET',
      { user_group_id: 'a', mapping: tooManyEntries },
      { mapping: /100/ },
    ],
    ['GET with array properties', 'GET', { user_group_id: 'a', properties: [1] }, { properties: /object/ }],
    ['GET with string properties', 'GET', { user_group_id: 'a', properties: '{}' }, { properties: /object/ }],
    ['POST without current_token', 'POST', { user_group_id: 'a' }, { current_token: /required/ }],
    ['POST with a numeric current_token', 'POST', { current_token: 5 }, { current_token: /string/ }],
    [
      'POST with a 1025-character current_token',
      'POST',
      { current_token: 'a'.repeat(1025) },
      { current_token: /1024/ },
    ],
    [
      'DELETE with an empty body object',
      'DELETE',
      {},
      { user_group_id: /required/, current_token: /required/ },
    ],
    ['DELETE without current_token', 'DELETE', { user_group_id: 'a' }, { current_token: /required/ }],
  ];
  it.each(fieldCases)('for %s, with a message per field', async (_case, method, requestBody, expected) => {
    const body = expectError(await call(service.url, method, requestBody, { key }), 400, 'invalid_request');
    expect(Object.keys(body.error?.fields ?? {}).sort()).toEqual(Object.keys(expected).sort());
    for (const [field, pattern] of Object.entries(expected))
      expect(body.error?.fields?.[field]).toMatch(pattern);
  });

  it('ignores unknown fields', async () => {
    const answer = await call(
      service.url,
      'GET',
      { user_group_id: 'extra', surprise: { deep: true } },
      { key },
    );
    expect(answer.status).toBe(200);
  });
});

describe('401 unauthorized', () => {
  const headerCases: Array<[string, Record<string, string>]> = [
    ['no Authorization header', {}],
    ['another scheme', { authorization: 'Bearer ugs_abc' }],
    ['the scheme alone', { authorization: 'Token' }],
    ['a key with spaces', { authorization: 'Token ugs_abc def' }],
    ['an unknown key', { authorization: 'Token ugs_unknownunknownunknown' }],
  ];
  it.each(headerCases)('for %s', async (_case, headers) => {
    expectError(await call(service.url, 'GET', { user_group_id: 'a' }, { headers }), 401, 'unauthorized');
  });

  it('for a revoked key (the test server caches keys for 0 ms)', async () => {
    const revoked = await createApiKey({ database: backend.database, environment: 'Testing' });
    expect((await call(service.url, 'GET', { user_group_id: 'r' }, { key: revoked.key })).status).toBe(200);
    expect(await revokeApiKey({ database: backend.database, id: revoked.id })).toBe(true);
    expect(await revokeApiKey({ database: backend.database, id: revoked.id })).toBe(false);
    expectError(
      await call(service.url, 'GET', { user_group_id: 'r' }, { key: revoked.key }),
      401,
      'unauthorized',
    );
  });
});

describe('404, 405, 413, 415', () => {
  it.each(['/', '/api/users', '/api/user/1', '/API/USER'])('404 not_found for the path %s', async (path) => {
    expectError(await call(service.url, 'GET', {}, { key }, path), 404, 'not_found');
  });

  const methodCases: Array<[string, string, string]> = [
    ['PUT', '/api/user', 'GET, POST, DELETE'],
    ['PATCH', '/api/user', 'GET, POST, DELETE'],
    ['OPTIONS', '/api/user', 'GET, POST, DELETE'],
    ['POST', '/healthz', 'GET'],
    ['DELETE', '/openapi.json', 'GET'],
  ];
  it.each(methodCases)('405 method_not_allowed for %s %s, with Allow', async (method, path, allow) => {
    const answer = await call(service.url, method, {}, { key }, path);
    expectError(answer, 405, 'method_not_allowed');
    expect(answer.headers.allow).toBe(allow);
  });

  it.each([
    ['no Content-Type', { 'content-type': '' }],
    ['text/plain', { 'content-type': 'text/plain' }],
    ['form encoding', { 'content-type': 'application/x-www-form-urlencoded' }],
    ['a non-UTF-8 charset', { 'content-type': 'application/json; charset=latin1' }],
  ])('415 unsupported_media_type for %s', async (_case, headers) => {
    const answer = await call(service.url, 'GET', { user_group_id: 'a' }, { key, headers });
    expectError(answer, 415, 'unsupported_media_type');
  });

  it.each(['application/json; charset=utf-8', 'Application/JSON;charset="UTF-8"'])(
    'accepts Content-Type %s',
    async (contentType) => {
      const headers = { 'content-type': contentType };
      expect((await call(service.url, 'GET', { user_group_id: 'ct' }, { key, headers })).status).toBe(200);
    },
  );

  const oversized = Buffer.alloc(1024 * 1024 + 1, 0x20);
  it('413 payload_too_large from Content-Length, without reading the body', async () => {
    const answer = await call(service.url, 'GET', undefined, { key, rawBody: oversized });
    expectError(answer, 413, 'payload_too_large');
  });

  it('413 payload_too_large for a chunked body that grows past 1 MiB, and the server stays up', async () => {
    async function* chunks() {
      for (let index = 0; index < 40; index++) yield Buffer.alloc(64 * 1024, 0x20);
    }
    const answer = await call(service.url, 'POST', undefined, { key, rawBody: Readable.from(chunks()) });
    expectError(answer, 413, 'payload_too_large');
    expect((await call(service.url, 'GET', undefined, {}, '/healthz')).status).toBe(200);
  });

  it('accepts a body of exactly 1 MiB', async () => {
    const prefix = '{"user_group_id":"big","properties":{"blob":"';
    const suffix = '"}}';
    const filler = 'y'.repeat(1024 * 1024 - prefix.length - suffix.length);
    const answer = await call(service.url, 'GET', undefined, { key, rawBody: `${prefix}${filler}${suffix}` });
    expect(answer.status, answer.text.slice(0, 200)).toBe(200);
  });
});

describe('429 rate_limited', () => {
  it('answers 429 with Retry-After once the bucket of a key is empty, per key', async () => {
    const limited = await startTestService(backend.database, { rateLimit: { perSecond: 1, burst: 2 } });
    try {
      const other = await createApiKey({ database: backend.database, environment: 'Customer' });
      const statuses: number[] = [];
      let last: Awaited<ReturnType<typeof call>> | undefined;
      for (let index = 0; index < 3; index++) {
        last = await call(limited.url, 'GET', { user_group_id: 'limited' }, { key });
        statuses.push(last.status);
      }
      expect(statuses).toEqual([200, 200, 429]);
      if (!last) throw new Error('no answer');
      expectError(last, 429, 'rate_limited');
      expect(last.headers['retry-after']).toBe('1');
      expect((await call(limited.url, 'GET', { user_group_id: 'limited' }, { key: other.key })).status).toBe(
        200,
      );
    } finally {
      await limited.close();
    }
  });
});
