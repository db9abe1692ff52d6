/**
 * An oversized body is answered 413 before it has arrived, and every client hears that answer: the
 * server reads and drops the rest (within bounds) before closing. Closing at once made Node's http
 * client report EPIPE for a 5 MB body, every time.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BodyOptions, sendWithNodeHttp, sendWithUndici } from '../testing/oversized-body';
import { createApiKey } from './api-keys';
import type { RunningUserGroupService } from './server';
import { createSqliteBackend, startTestService, type TestBackend } from './test-support';

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

const fiveMegabytes = Buffer.alloc(5 * 1024 * 1024, 0x20);
const headers = () => ({ 'content-type': 'application/json', authorization: `Token ${key}` });
const url = () => `${service.url}/api/user`;

const clients: Array<
  [string, (options: BodyOptions) => ReturnType<typeof sendWithUndici>, Partial<BodyOptions>]
> = [
  ['node:http, Connection: close', (options) => sendWithNodeHttp(url(), options), {}],
  ['node:http, keep-alive', (options) => sendWithNodeHttp(url(), options), { keepAlive: true }],
  ['node:http, chunked', (options) => sendWithNodeHttp(url(), options), { chunked: true }],
  ['undici', (options) => sendWithUndici(url(), options), {}],
];

describe('a 5 MB body answered 413', () => {
  for (const method of ['GET', 'POST'] as const) {
    it.each(clients)(
      `${method} with %s: the client reads the 413, three times in a row`,
      async (_, send, extra) => {
        for (let attempt = 0; attempt < 3; attempt++) {
          const outcome = await send({ method, body: fiveMegabytes, headers: headers(), ...extra });
          expect(outcome).toMatchObject({ status: 413, error: null });
          expect(JSON.parse(outcome.text).error.code).toBe('payload_too_large');
        }
      },
    );
  }

  it('with no API key: the client reads the 401 that came before the body', async () => {
    const outcome = await sendWithNodeHttp(url(), {
      method: 'POST',
      body: fiveMegabytes,
      headers: { 'content-type': 'application/json' },
    });
    expect(outcome).toMatchObject({ status: 401, error: null });
  });
});
