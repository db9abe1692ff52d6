/**
 * The console's /metrics and /api/ready over HTTP: the console's own node:http server in front of
 * the real route handlers, a real console database and a real User Group Service. Who may read the
 * metrics (this machine's non-loopback address for real, a trusted proxy on loopback that says the
 * client is elsewhere, an undeclared one), that a request is counted under its route pattern and
 * status, that no email, group id, token or key reaches the scrape, and readiness that follows the
 * upstream as it stops and comes back.
 */
import { request as httpRequest } from 'node:http';
import { request } from 'undici';
import { afterAll, describe, expect, it } from 'vitest';
import { testClock } from '@/lib/clock';
import { startConsoleOverHttp } from '@/lib/testing/console-over-http';
import { nonLoopbackAddress, sampleValue } from '@/lib/testing/prometheus-text';
import { startRouteTestConsole } from '@/lib/testing/route-harness';
import { PROBE_FRESH_MS } from '@/lib/upstream-status/server';
import { startTestService } from '@/lib/user-group-service/test-support';

const PORT = 3993;
const METRICS_TOKEN = 'console-metrics-token-4b1d77e2';
// The console's clock, which its upstream probe reads: moved on here instead of waited out.
const clock = testClock();
const harness = await startRouteTestConsole(
  'metrics',
  PORT,
  {
    METRICS_TOKEN,
    // A reverse proxy on this machine, at a loopback address of its own; the tests speak from 127.0.0.1.
    CONSOLE_TRUSTED_PROXIES: '127.0.0.2',
  },
  { clock },
);
const { parseTrustedProxies } = await import('@/lib/config/trusted-proxies');
const routes = {
  '/api/health': await import('@/app/api/health/route'),
  '/api/ready': await import('@/app/api/ready/route'),
  '/api/user-groups/[environment]': await import('@/app/api/user-groups/[environment]/route'),
  '/api/user-groups/[environment]/get-or-create': await import(
    '@/app/api/user-groups/[environment]/get-or-create/route'
  ),
  '/api/auth/[...all]': await import('@/app/api/auth/[...all]/route'),
};
const trustedProxies = parseTrustedProxies('127.0.0.2');
if (trustedProxies instanceof Error) throw trustedProxies;
// Every interface: the same server is reached from loopback and from this machine's other address.
const console_ = await startConsoleOverHttp({
  port: PORT,
  host: '0.0.0.0',
  routes,
  access: { token: METRICS_TOKEN, trustedProxies, ownHosts: ['127.0.0.1'] },
});
let service = harness.service;
/** A GET /metrics from the trusted proxy's address, as the proxy's own connections would come. */
function viaProxy(headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const sent = httpRequest(
      { host: '127.0.0.1', port: PORT, path: '/metrics', localAddress: '127.0.0.2', headers, agent: false },
      (answer) => {
        answer.resume();
        resolve(answer.statusCode ?? 0);
      },
    );
    sent.on('error', reject);
    sent.end();
  });
}

afterAll(async () => {
  await console_.close();
  await service.close();
  await harness.close();
});

const base = `http://127.0.0.1:${PORT}`;
const elsewhere = nonLoopbackAddress();

async function scrape(headers: Record<string, string> = {}): Promise<string> {
  const answer = await fetch(`${base}/metrics`, { headers });
  expect(answer.status).toBe(200);
  expect(answer.headers.get('content-type')).toMatch(/^text\/plain/);
  return answer.text();
}

const asAdmin = (body?: unknown) => ({
  method: body === undefined ? 'GET' : 'POST',
  headers: { 'content-type': 'application/json', origin: harness.origin, cookie: harness.adminCookie },
  ...(body === undefined ? {} : { body: JSON.stringify(body) }),
});

describe('GET /metrics on the console', () => {
  it('answers a loopback client without a token, with process metrics', async () => {
    const text = await scrape();
    expect(text).toContain('# TYPE console_http_requests_total counter');
    expect(text).toContain('process_resident_memory_bytes');
  });

  it.skipIf(!elsewhere)(
    'refuses a client on a non-loopback address without the right token, and answers it with',
    async () => {
      const url = `http://${elsewhere}:${PORT}/metrics`;
      const refused = await fetch(url);
      expect(refused.status).toBe(401);
      expect(refused.headers.get('www-authenticate')).toMatch(/^Bearer/);
      const body = await refused.json();
      expect(body).toMatchObject({ error: { code: 'unauthenticated' } });
      expect(body.error.requestId).toEqual(expect.any(String));
      const wrong = await fetch(url, { headers: { authorization: `Bearer ${METRICS_TOKEN.slice(0, -1)}` } });
      expect(wrong.status).toBe(403);
      expect((await wrong.json()).error.code).toBe('forbidden');
      const right = await fetch(url, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
      expect(right.status).toBe(200);
      expect(await right.text()).toContain('console_http_requests_total');
    },
  );

  it('refuses a request the trusted proxy on loopback says comes from elsewhere, or does not say', async () => {
    // The client wrote 127.0.0.1 itself in the second; the proxy appended the address it saw.
    for (const forwardedFor of ['203.0.113.9', '127.0.0.1, 203.0.113.9', 'unknown']) {
      expect(await viaProxy({ 'x-forwarded-for': forwardedFor }), forwardedFor).toBe(401);
    }
    expect(await viaProxy({}), 'a proxy that names no client').toBe(401);
    // …and answers one it says comes from this machine, or that carries the token.
    expect(await viaProxy({ 'x-forwarded-for': '127.0.0.1' })).toBe(200);
    expect(
      await viaProxy({ 'x-forwarded-for': '203.0.113.9', authorization: `Bearer ${METRICS_TOKEN}` }),
    ).toBe(200);
  });

  it('refuses a loopback client that says it forwards for someone (a proxy nobody declared)', async () => {
    const relayed = await fetch(`${base}/metrics`, { headers: { 'x-forwarded-for': '203.0.113.9' } });
    expect(relayed.status).toBe(401);
  });

  it('refuses a loopback socket whose Host is another site (DNS rebinding)', async () => {
    const answer = await request(`${base}/metrics`, { headers: { host: 'attacker.example' } });
    expect(answer.statusCode).toBe(401);
    await answer.body.dump();
  });

  it('counts a request under its route pattern and status: one more after it is made', async () => {
    const labels = { method: 'GET', route: '/api/user-groups/[environment]', status: '200' };
    const before = await scrape();
    const search = await fetch(`${base}/api/user-groups/testing?q=acme-secret-search`, asAdmin());
    expect(search.status).toBe(200);
    const after = await scrape();
    expect(sampleValue(after, 'console_http_requests_total', labels)).toBe(
      sampleValue(before, 'console_http_requests_total', labels) + 1,
    );
    expect(sampleValue(after, 'console_http_request_duration_seconds_count', labels)).toBe(
      sampleValue(before, 'console_http_request_duration_seconds_count', labels) + 1,
    );
    // The scrapes count themselves too, under /metrics.
    expect(
      sampleValue(after, 'console_http_requests_total', { route: '/metrics', status: '200' }),
    ).toBeGreaterThan(0);
  });

  it('counts upstream calls, sign-in failures and unknown paths, with no email, group id, token or key', async () => {
    const groupId = 'tenant-secret-5e6f7a8b';
    const email = 'intruder@metrics.example';
    const before = await scrape();
    const created = await fetch(
      `${base}/api/user-groups/testing/get-or-create`,
      asAdmin({ user_group_id: groupId, name: 'Private Group Name' }),
    );
    expect(created.status, await created.clone().text()).toBe(200);
    const token = (await created.json()).user_group.token as string;
    expect(token).toMatch(/^[0-9a-f]{64}$/);
    const signIn = await fetch(`${base}/api/auth/sign-in/email`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: harness.origin },
      body: JSON.stringify({ email, password: 'wrong-password-123' }),
    });
    expect(signIn.status).toBe(401);
    expect((await fetch(`${base}/customer/groups/${groupId}`)).status).toBe(404);
    const after = await scrape({ authorization: `Bearer ${METRICS_TOKEN}` });

    const upstream = { environment: 'Testing', operation: 'get-or-create', outcome: 'success' };
    expect(sampleValue(after, 'console_upstream_requests_total', upstream)).toBe(
      sampleValue(before, 'console_upstream_requests_total', upstream) + 1,
    );
    const failure = { method: 'password', reason: 'invalid_email_or_password' };
    expect(sampleValue(after, 'console_sign_in_failures_total', failure)).toBe(
      sampleValue(before, 'console_sign_in_failures_total', failure) + 1,
    );
    const page = { route: '/[environment]/groups/[id]', status: '404' };
    expect(sampleValue(after, 'console_http_requests_total', page)).toBe(
      sampleValue(before, 'console_http_requests_total', page) + 1,
    );
    for (const secret of [
      groupId,
      'Private Group Name',
      token,
      email,
      harness.admin.email,
      harness.testingKey,
      METRICS_TOKEN,
      'acme-secret-search',
    ]) {
      expect(after, secret).not.toContain(secret);
    }
  });
});

describe('GET /api/ready on the console', () => {
  const ready = async () => {
    const answer = await fetch(`${base}/api/ready`);
    return { status: answer.status, body: await answer.json() };
  };
  // A probe's answer is kept 5 s (lib/upstream-status/server.ts): the console's clock moves past
  // that instead of the test waiting it out.
  const probeExpires = () => clock.advance(PROBE_FRESH_MS);

  it('turns 503 when the upstream stops answering and 200 when it is back; /api/health stays 200', async () => {
    const up = await ready();
    expect(up.status, JSON.stringify(up.body)).toBe(200);
    expect(up.body).toMatchObject({
      status: 'ready',
      database: 'answering',
      environments: expect.arrayContaining([
        expect.objectContaining({ environment: 'Testing', state: 'answering' }),
        expect.objectContaining({ environment: 'Customer', state: 'not_configured' }),
      ]),
    });

    const port = Number(new URL(service.url).port);
    await service.close();
    await probeExpires();
    const down = await ready();
    expect(down.status).toBe(503);
    expect(down.body).toMatchObject({
      status: 'not_ready',
      database: 'answering',
      environments: expect.arrayContaining([
        expect.objectContaining({ environment: 'Testing', state: 'not_answering' }),
      ]),
    });
    expect(JSON.stringify(down.body)).not.toContain(service.url);
    expect((await fetch(`${base}/api/health`)).status).toBe(200);

    service = await startTestService(harness.serviceDatabase, { port });
    await probeExpires();
    expect((await ready()).status).toBe(200);
  });
});
