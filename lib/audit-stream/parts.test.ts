import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { testClock } from '@/lib/clock';
import { parseConfig } from '@/lib/config';
import { formatBatch } from './format';
import { retryAfterMs, sendBatch } from './send';
import { describeStreamStatus } from './status';
import { backoff } from './streamer';

const clock = testClock();

const object = (id: number) => ({
  kind: 'audit.entry',
  idempotency_key: `${id}:0`,
  id,
  at: '2026-11-27T06:00:00.500Z',
});

describe('AUDIT_STREAM_* settings', () => {
  it('streams nothing unless AUDIT_STREAM_URL is set; https, or http only to loopback or when allowed', () => {
    expect(parseConfig({}).auditStream).toBeNull();
    expect(
      parseConfig({ AUDIT_STREAM_URL: 'https://siem.example.com/in', AUDIT_STREAM_TOKEN: 't' }).auditStream,
    ).toMatchObject({
      token: 't',
      format: 'ndjson',
      batchSize: 200,
    });
    expect(parseConfig({ AUDIT_STREAM_URL: 'http://127.0.0.1:8088/in' }).auditStream?.url.port).toBe('8088');
    expect(() => parseConfig({ AUDIT_STREAM_URL: 'http://siem.internal/in' })).toThrow(
      /AUDIT_STREAM_URL must be https/,
    );
    expect(
      parseConfig({ AUDIT_STREAM_URL: 'http://siem.internal/in', AUDIT_STREAM_ALLOW_HTTP: 'true' })
        .auditStream?.url.host,
    ).toBe('siem.internal');
    expect(() => parseConfig({ AUDIT_STREAM_URL: 'https://user:pw@siem.example.com/' })).toThrow(
      /credentials/,
    );
    expect(() => parseConfig({ AUDIT_STREAM_TOKEN: 't' })).toThrow(/without AUDIT_STREAM_URL/);
    for (const [name, value] of [
      ['AUDIT_STREAM_FORMAT', 'syslog'],
      ['AUDIT_STREAM_BATCH_SIZE', '1001'],
      ['AUDIT_STREAM_URL', 'ftp://siem.example.com/'],
    ] as const)
      expect(() => parseConfig({ AUDIT_STREAM_URL: 'https://siem.example.com/', [name]: value })).toThrow(
        name,
      );
  });
});

describe('the formats a batch goes in', () => {
  it('ndjson: one object per line with a bearer; the batch keyed by its first and last objects', () => {
    const batch = formatBatch('ndjson', [object(1), object(2)], 'tok');
    expect(
      batch.body
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line).id),
    ).toEqual([1, 2]);
    expect(batch.contentType).toBe('application/x-ndjson');
    expect(batch.headers).toEqual({ authorization: 'Bearer tok', 'idempotency-key': '1:0..2:0' });
    expect(formatBatch('ndjson', [object(1)], null).headers).toEqual({ 'idempotency-key': '1:0..1:0' });
  });

  it("splunk: HEC's event envelope per line, its time in seconds, the token as `Splunk`", () => {
    const batch = formatBatch('splunk', [object(1), object(2)], 'hec');
    const lines = batch.body.split('\n').map((line) => JSON.parse(line));
    expect(lines[0]).toEqual({
      time: Date.parse('2026-11-27T06:00:00.500Z') / 1000,
      source: 'user-group-console',
      sourcetype: 'user-group-console:audit.entry',
      event: object(1),
    });
    expect(batch.headers.authorization).toBe('Splunk hec');
  });

  it('datadog: a JSON array of logs with ddsource, service and the message its schema requires, the key in DD-API-KEY', () => {
    const entry = { ...object(1), action: 'rotate', outcome: 'success', operator_email: 'ann@example.com' };
    const seal = { kind: 'audit.seal', idempotency_key: 'seal:4', id: 4, through_id: 1, at: entry.at };
    const batch = formatBatch('datadog', [entry, seal], 'dd');
    expect(JSON.parse(batch.body)).toEqual([
      {
        ddsource: 'user-group-console',
        service: 'user-group-console',
        message: 'rotate success by ann@example.com',
        ...entry,
      },
      {
        ddsource: 'user-group-console',
        service: 'user-group-console',
        message: 'audit seal 4 (entries through 1)',
        ...seal,
      },
    ]);
    expect(batch.contentType).toBe('application/json');
    expect(batch.headers['dd-api-key']).toBe('dd');
    expect(batch.headers.authorization).toBeUndefined();
  });
});

describe('sending a batch', () => {
  it('never follows a redirect (the token stays with the endpoint) and reads Retry-After', async () => {
    const seen: string[] = [];
    const server = createServer((req, res) => {
      seen.push(req.url ?? '');
      if (req.url === '/moved') {
        res.writeHead(307, { location: 'http://127.0.0.2:9/elsewhere' });
        res.end();
      } else {
        res.writeHead(429, { 'retry-after': '7' });
        res.end('slow down');
      }
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const batch = formatBatch('ndjson', [object(1)], 'tok');
      expect(await sendBatch(new URL(`${base}/moved`), batch, { timeoutMs: 2_000, now: clock.now })).toEqual({
        delivered: false,
        failure: 'answering 307',
        status: 307,
        retryAfterMs: null,
      });
      expect(
        await sendBatch(new URL(`${base}/busy`), batch, { timeoutMs: 2_000, now: clock.now }),
      ).toMatchObject({
        failure: 'answering 429',
        retryAfterMs: 7_000,
      });
      expect(seen).toEqual(['/moved', '/busy']);
    } finally {
      server.close();
    }
    expect(
      await sendBatch(new URL(base), formatBatch('ndjson', [object(1)], null), {
        timeoutMs: 2_000,
        now: clock.now,
      }),
    ).toMatchObject({
      failure: 'unreachable',
    });
  });

  it('reads Retry-After as seconds or as a date, and backs off doubling up to its cap', () => {
    const now = Date.parse('2026-11-27T06:00:00Z');
    expect(retryAfterMs('3', now)).toBe(3_000);
    expect(retryAfterMs('Fri, 27 Nov 2026 06:00:30 GMT', now)).toBe(30_000);
    expect(retryAfterMs('soon', now)).toBeNull();
    expect(retryAfterMs(undefined, now)).toBeNull();
    const timing = {
      leaseMs: 30_000,
      pollMs: 1_000,
      settleMs: 1_000,
      backoffMs: 1_000,
      maxBackoffMs: 300_000,
    };
    expect([1, 2, 3, 20].map((attempt) => backoff(attempt, timing, () => 1))).toEqual([
      1_000, 2_000, 4_000, 300_000,
    ]);
    expect(backoff(3, timing, () => 0)).toBe(2_000);
  });
});

describe("the audit page's line", () => {
  const status = { pending: 0, lagSeconds: 0, lastDeliveredAt: null, failure: null, failingSince: null };
  it('says how far behind and what the endpoint answers', () => {
    expect(describeStreamStatus(status)).toBe('streaming: up to date');
    expect(describeStreamStatus({ ...status, pending: 40, lagSeconds: 185, failure: 'answering 503' })).toBe(
      'streaming: 3 min behind, endpoint answering 503',
    );
    expect(describeStreamStatus({ ...status, pending: 1, lagSeconds: 2, failure: 'unreachable' })).toBe(
      'streaming: 2 s behind, endpoint unreachable',
    );
    expect(describeStreamStatus({ ...status, pending: 9, lagSeconds: 3 * 86_400 })).toBe(
      'streaming: 3 days behind',
    );
  });
});
