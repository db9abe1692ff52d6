/**
 * The service's /metrics, /healthz and /readyz against real servers: who reads the metrics (from
 * loopback, from this machine's other address for real, through a proxy), that a request is counted
 * under its route and status, that no key, token or group id reaches a label, and readiness that
 * follows the database (PostgreSQL behind a TCP relay that is cut and restored).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pgRelay } from '../testing/pg-relay';
import { nonLoopbackAddress, sampleValue } from '../testing/prometheus-text';
import { createApiKey } from './api-keys';
import type { RunningUserGroupService } from './server';
import {
  call,
  createPostgresBackend,
  createSqliteBackend,
  startTestService,
  type TestBackend,
} from './test-support';

const METRICS_TOKEN = 'service-metrics-token-7f3a9c';
const elsewhere = nonLoopbackAddress();

let backend: TestBackend;
let service: RunningUserGroupService;
let key: string;

beforeAll(async () => {
  backend = await createSqliteBackend();
  // Every interface, so that the same server is also reached from a non-loopback address.
  service = await startTestService(backend.database, { host: '0.0.0.0', metricsToken: METRICS_TOKEN });
  key = (await createApiKey({ database: backend.database, environment: 'Customer' })).key;
});

afterAll(async () => {
  await service?.close();
  await backend?.dispose();
});

const scrape = async (base = service.url, headers: Record<string, string> = {}) => {
  const answer = await call(base, 'GET', undefined, { headers }, '/metrics');
  expect(answer.status, answer.text).toBe(200);
  return answer.text;
};

describe('GET /metrics', () => {
  it('answers on loopback without a token', async () => {
    const text = await scrape();
    expect(text).toContain('# TYPE user_group_service_http_requests_total counter');
    expect(text).toContain('process_cpu_user_seconds_total');
  });

  it.skipIf(!elsewhere)(
    'refuses a client on a non-loopback address without the token, and answers it with',
    async () => {
      const base = service.url.replace('127.0.0.1', elsewhere as string);
      const refused = await call(base, 'GET', undefined, {}, '/metrics');
      expect(refused.status).toBe(401);
      expect(refused.json).toMatchObject({ success: 0, error: { code: 'unauthorized' } });
      expect(refused.headers['www-authenticate']).toMatch(/^Bearer/);
      expect(refused.text).not.toContain('user_group_service_http_requests_total');
      const wrong = await call(
        base,
        'GET',
        undefined,
        { headers: { authorization: `Bearer ${METRICS_TOKEN}0` } },
        '/metrics',
      );
      expect(wrong.status).toBe(401);
      await scrape(base, { authorization: `Bearer ${METRICS_TOKEN}` });
    },
  );

  it('refuses a request relayed by a local proxy (it carries X-Forwarded-For), unless it has the token', async () => {
    const relayed = await call(
      service.url,
      'GET',
      undefined,
      { headers: { 'x-forwarded-for': '203.0.113.9' } },
      '/metrics',
    );
    expect(relayed.status).toBe(401);
    await scrape(service.url, { 'x-forwarded-for': '203.0.113.9', authorization: `Bearer ${METRICS_TOKEN}` });
  });

  it('counts a request under its route and status, one more after it is made', async () => {
    const labels = { method: 'GET', route: '/api/user', status: '200' };
    const before = sampleValue(await scrape(), 'user_group_service_http_requests_total', labels);
    const answer = await call(service.url, 'GET', { user_group_id: 'metrics-count' }, { key });
    expect(answer.status).toBe(200);
    const after = await scrape();
    expect(sampleValue(after, 'user_group_service_http_requests_total', labels)).toBe(before + 1);
    expect(sampleValue(after, 'user_group_service_http_request_duration_seconds_count', labels)).toBe(
      before + 1,
    );
  });

  it('counts refused keys and unknown paths without their values', async () => {
    const before = await scrape();
    await call(service.url, 'GET', { user_group_id: 'x' }, { key: 'not-a-key-at-all' });
    await call(service.url, 'GET', undefined, {}, '/group/secret-group-id-in-path');
    const after = await scrape();
    expect(sampleValue(after, 'user_group_service_api_key_refusals_total')).toBe(
      sampleValue(before, 'user_group_service_api_key_refusals_total') + 1,
    );
    const unmatched = { method: 'GET', route: 'unmatched', status: '404' };
    expect(sampleValue(after, 'user_group_service_http_requests_total', unmatched)).toBe(
      sampleValue(before, 'user_group_service_http_requests_total', unmatched) + 1,
    );
  });

  it('never carries a key, token, group id or the metrics token', async () => {
    const groupId = 'tenant-0f9e8d7c6b5a';
    const created = await call(service.url, 'GET', { user_group_id: groupId, name: 'Private Name' }, { key });
    const token = created.json.user_group.token as string;
    await call(service.url, 'POST', { current_token: token }, { key });
    const text = await scrape(service.url, { authorization: `Bearer ${METRICS_TOKEN}` });
    for (const secret of [groupId, 'Private Name', token, key, METRICS_TOKEN, 'secret-group-id-in-path']) {
      expect(text).not.toContain(secret);
    }
  });
});

describe('GET /healthz and /readyz', () => {
  it('answers liveness without I/O and readiness from the database', async () => {
    expect((await call(service.url, 'GET', undefined, {}, '/healthz')).json).toEqual({
      success: 1,
      status: 'ok',
    });
    const ready = await call(service.url, 'GET', undefined, {}, '/readyz');
    expect(ready.status).toBe(200);
    expect(ready.json).toEqual({ success: 1, status: 'ready' });
  });
});

describe('readiness on PostgreSQL', async () => {
  const pgBackend = await createPostgresBackend();
  it.skipIf(!pgBackend)('turns 503 when the database stops answering and 200 when it is back', async () => {
    const backend = pgBackend as TestBackend;
    const url = new URL(backend.database);
    const relay = await pgRelay();
    url.port = new URL(relay.url).port;
    const relayed = await startTestService(url.toString());
    try {
      expect((await call(relayed.url, 'GET', undefined, {}, '/readyz')).status).toBe(200);
      await relay.cut();
      const down = await call(relayed.url, 'GET', undefined, {}, '/readyz');
      expect(down.status).toBe(503);
      expect(down.json).toEqual({ success: 0, error: { code: 'internal', message: 'database unavailable' } });
      // Liveness does not follow the database.
      expect((await call(relayed.url, 'GET', undefined, {}, '/healthz')).status).toBe(200);
      await relay.restore();
      expect((await call(relayed.url, 'GET', undefined, {}, '/readyz')).status).toBe(200);
    } finally {
      await relay.restore().catch(() => undefined);
      await relayed.close();
      await relay.cut();
      await backend.dispose();
    }
  });
});
