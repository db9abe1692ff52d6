/**
 * Logs and 500s: one JSON line per request with the documented fields and no secret, and an
 * unexpected failure answered as a bare 500 `internal` while the log keeps the details and request id.
 */
import SqliteDatabase from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorResponseSchema } from '../user-group-api/contract';
import { createApiKey } from './api-keys';
import { createLogger } from './logger';
import type { RunningUserGroupService } from './server';
import { call, createSqliteBackend, startTestService, type TestBackend } from './test-support';

const lines: string[] = [];
const capture = { write: (line: string) => void lines.push(line) };
const records = () => lines.map((line) => JSON.parse(line) as Record<string, unknown>);

let backend: TestBackend;
let service: RunningUserGroupService;
let key: string;
let keyId: string;

beforeAll(async () => {
  backend = await createSqliteBackend();
  service = await startTestService(backend.database, { logger: createLogger('info', capture) });
  ({ key, id: keyId } = await createApiKey({ database: backend.database, environment: 'Customer' }));
});

afterAll(async () => {
  await service?.close();
  await backend?.dispose();
});

describe('logs', () => {
  it('writes one line per request with method, path, status, duration, request id and key id', async () => {
    lines.length = 0;
    const headers = { 'x-request-id': 'log-test-1' };
    const created = await call(service.url, 'GET', { user_group_id: 'logged' }, { key, headers });
    const token: string = created.json.user_group.token;
    const rotated = await call(service.url, 'POST', { current_token: token }, { key });
    const newToken: string = rotated.json.user_group.token;
    await call(service.url, 'DELETE', { user_group_id: 'logged', current_token: newToken }, { key });
    await call(service.url, 'GET', { user_group_id: 'x' }, { key: 'ugs_not_a_real_key' });

    const requests = records().filter((record) => record.msg === 'request');
    expect(requests).toHaveLength(4);
    expect(requests[0]).toMatchObject({
      method: 'GET',
      path: '/api/user',
      status: 200,
      request_id: 'log-test-1',
      key_id: keyId,
      duration_ms: expect.any(Number),
    });
    expect(requests.map((record) => record.status)).toEqual([200, 200, 200, 401]);
    const text = lines.join('');
    for (const secret of [key, token, newToken, 'ugs_not_a_real_key']) expect(text).not.toContain(secret);
    expect(text.toLowerCase()).not.toContain('authorization');
  });

  it('redacts secrets even if one is put in a log object by mistake', () => {
    const sink: string[] = [];
    const logger = createLogger('info', { write: (line: string) => void sink.push(line) });
    logger.info(
      {
        token: 't0ken',
        current_token: 'cur',
        headers: { authorization: 'Token k3y' },
        user_group: { token: 't1' },
      },
      'oops',
    );
    expect(sink.join('')).not.toMatch(/t0ken|cur"|k3y|t1"/);
    expect(sink.join('')).toContain('[redacted]');
  });
});

describe('500 internal', () => {
  it('answers without details and logs the failure with the request id', async () => {
    // Break the store under the running server.
    const sqlite = new SqliteDatabase(backend.database);
    sqlite.exec('drop table user_groups');
    sqlite.close();
    lines.length = 0;

    const answer = await call(service.url, 'GET', { user_group_id: 'boom' }, { key });
    expect(answer.status).toBe(500);
    const body = errorResponseSchema.parse(answer.json);
    expect(body.error?.code).toBe('internal');
    expect(answer.text).not.toMatch(/user_groups|no such table|\bat \S+:\d+/);

    const requestId = answer.headers['x-request-id'];
    const failure = records().find((record) => record.msg === 'request failed');
    expect(failure).toMatchObject({ request_id: requestId, key_id: keyId, level: 50 });
    expect(JSON.stringify(failure)).toContain('no such table');
  });
});
