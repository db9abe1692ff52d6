import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { realClock } from '../clock';
import { createUserGroupApi, UpstreamError, type UpstreamErrorKind } from './client';

/**
 * A vendor's server is a boundary the tests cannot reach: this one stands in for it on loopback
 * and answers whatever the case asks for, so every way an upstream can fail is exercised.
 */
type Reply = (request: IncomingMessage, body: string, response: ServerResponse) => void;
let reply: Reply = () => {};
let server: Server;
let baseUrl: string;

const json = (
  response: ServerResponse,
  status: number,
  payload: unknown,
  headers: Record<string, string> = {},
) => {
  response.writeHead(status, { 'content-type': 'application/json', ...headers });
  response.end(JSON.stringify(payload));
};

beforeAll(async () => {
  server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => {
      body += chunk;
    });
    request.on('end', () => reply(request, body, response));
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  server.close();
});

const apiKey = 'test-key-0123456789';
const group = { team_id: 7, token: 'a'.repeat(64), name: 'Acme', provided_id: 'acme' };

describe('createUserGroupApi', () => {
  it('sends a JSON body on GET with the Token header and parses the answer', async () => {
    let seen: { method?: string; auth?: string; type?: string; body?: string } = {};
    reply = (request, body, response) => {
      seen = {
        method: request.method,
        auth: request.headers.authorization,
        type: request.headers['content-type'],
        body,
      };
      json(response, 200, { success: 1, new_user_group: true, user_group: group });
    };
    const api = createUserGroupApi({ baseUrl, apiKey, clock: realClock });
    const answer = await api.getOrCreate({ user_group_id: 'acme', name: 'Acme', mapping: { s: 1 } });
    expect(seen).toEqual({
      method: 'GET',
      auth: `Token ${apiKey}`,
      type: 'application/json',
      body: JSON.stringify({ user_group_id: 'acme', name: 'Acme', mapping: { s: 1 } }),
    });
    // properties absent from the answer reads as null, as the spec allows.
    expect(answer).toEqual({ success: 1, new_user_group: true, user_group: { ...group, properties: null } });
  });

  it('rotates with POST and deletes with DELETE', async () => {
    const methods: string[] = [];
    reply = (request, _body, response) => {
      methods.push(request.method ?? '');
      if (request.method === 'POST') {
        json(response, 200, { success: 1, user_group: { ...group, api_environment_tag: 'Testing' } });
      } else json(response, 200, { success: 1 });
    };
    const api = createUserGroupApi({ baseUrl, apiKey, clock: realClock });
    const rotated = await api.rotate({ current_token: 'x' });
    expect(rotated.user_group.api_environment_tag).toBe('Testing');
    expect(await api.deleteUserGroup({ user_group_id: 'acme', current_token: 'x' })).toEqual({ success: 1 });
    expect(methods).toEqual(['POST', 'DELETE']);
  });

  const failures: Array<{
    name: string;
    reply: Reply;
    kind: UpstreamErrorKind;
    check?: (e: UpstreamError) => void;
  }> = [
    {
      name: '401 is a refused key',
      reply: (_q, _b, r) => json(r, 401, { success: 0, error: { code: 'unauthorized', message: 'no' } }),
      kind: 'unauthorized',
    },
    {
      name: '404 is not found',
      reply: (_q, _b, r) => json(r, 404, { success: 0 }),
      kind: 'not_found',
    },
    {
      name: '429 carries Retry-After',
      reply: (_q, _b, r) => json(r, 429, { success: 0 }, { 'retry-after': '7' }),
      kind: 'rate_limited',
      check: (e) => expect(e.details.retryAfterSeconds).toBe(7),
    },
    {
      name: '400 carries the field messages',
      reply: (_q, _b, r) =>
        json(r, 400, {
          success: 0,
          error: { code: 'invalid_request', message: 'bad', fields: { user_group_id: 'must not be empty' } },
        }),
      kind: 'invalid_request',
      check: (e) => expect(e.details.fields).toEqual({ user_group_id: 'must not be empty' }),
    },
    {
      name: 'success: 0 with 200 is a failure, not a result',
      reply: (_q, _b, r) => json(r, 200, { success: 0, error: { message: 'quota exceeded' } }),
      kind: 'failed',
      check: (e) => expect(e.message).toBe('quota exceeded'),
    },
    {
      name: '500 without a body is a failure',
      reply: (_q, _b, r) => {
        r.writeHead(500);
        r.end('<html>oops</html>');
      },
      kind: 'failed',
      check: (e) => expect(e.details.status).toBe(500),
    },
    {
      name: 'a 200 in another shape is malformed',
      reply: (_q, _b, r) => json(r, 200, { success: 1, user_group: { token: 5 } }),
      kind: 'malformed',
    },
    {
      name: 'a 200 that is not JSON is malformed',
      reply: (_q, _b, r) => {
        r.writeHead(200, { 'content-type': 'text/html' });
        r.end('<html></html>');
      },
      kind: 'malformed',
    },
  ];

  it.each(failures)('$name', async ({ reply: caseReply, kind, check }) => {
    reply = caseReply;
    const error = await createUserGroupApi({ baseUrl, apiKey, clock: realClock })
      .getOrCreate({ user_group_id: 'acme' })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(UpstreamError);
    const upstreamError = error as UpstreamError;
    expect(upstreamError.kind).toBe(kind);
    expect(upstreamError.message).not.toContain(apiKey);
    check?.(upstreamError);
  });

  it('names the URL of a malformed answer without the credentials it may carry', async () => {
    reply = (_q, _b, r) => json(r, 200, { success: 1, user_group: { token: 5 } });
    const error = (await createUserGroupApi({
      baseUrl: baseUrl.replace('http://', 'http://vendor:s3cret-pass@'),
      apiKey,
      clock: realClock,
    })
      .getOrCreate({ user_group_id: 'acme' })
      .catch((caught: unknown) => caught)) as UpstreamError;
    expect(error.kind).toBe('malformed');
    expect(error.message).toContain('http://***@127.0.0.1:');
    expect(error.message).not.toContain('s3cret-pass');
  });

  it('keeps one connection alive across calls, GET and DELETE bodies included', async () => {
    let connections = 0;
    const countConnections = () => {
      connections++;
    };
    server.on('connection', countConnections);
    reply = (request, _body, response) => {
      if (request.method === 'GET')
        json(response, 200, { success: 1, new_user_group: false, user_group: group });
      else json(response, 200, { success: 1 });
    };
    const api = createUserGroupApi({ baseUrl, apiKey, clock: realClock });
    for (let i = 0; i < 10; i++) {
      await api.getOrCreate({ user_group_id: 'acme' });
      await api.deleteUserGroup({ user_group_id: 'acme', current_token: 'x' });
    }
    server.off('connection', countConnections);
    // 20 calls: a connection per call (20) is the regression this guards against.
    expect(connections).toBeLessThanOrEqual(2);
  });

  it('reports a server that does not answer in time as a timeout naming the URL', async () => {
    reply = () => {}; // never answers
    const error = (await createUserGroupApi({ baseUrl, apiKey, timeoutMs: 200, clock: realClock })
      .getOrCreate({ user_group_id: 'acme' })
      .catch((caught: unknown) => caught)) as UpstreamError;
    expect(error.kind).toBe('timeout');
    expect(error.message).toContain(`${baseUrl}/api/user`);
  });

  it('reports a server that sends its headers and then stalls as a timeout', async () => {
    reply = (_request, _body, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.write('{"user_group":');
    };
    // The body's stall ends in the timeout, awaited: a client that hung on would fail the test's own timeout.
    const error = (await createUserGroupApi({ baseUrl, apiKey, timeoutMs: 50, clock: realClock })
      .getOrCreate({ user_group_id: 'acme' })
      .catch((caught: unknown) => caught)) as UpstreamError;
    expect(error.kind).toBe('timeout');
  });

  it('reports a closed port as unreachable naming the URL', async () => {
    const closed = createServer();
    closed.listen(0, '127.0.0.1');
    await once(closed, 'listening');
    const url = `http://127.0.0.1:${(closed.address() as AddressInfo).port}`;
    closed.close();
    await once(closed, 'close');
    const error = (await createUserGroupApi({ baseUrl: url, apiKey, clock: realClock })
      .rotate({ current_token: 'x' })
      .catch((caught: unknown) => caught)) as UpstreamError;
    expect(error.kind).toBe('unreachable');
    expect(error.message).toContain(`${url}/api/user`);
  });

  it('names the URL without the credentials it may carry', async () => {
    const closed = createServer();
    closed.listen(0, '127.0.0.1');
    await once(closed, 'listening');
    const port = (closed.address() as AddressInfo).port;
    closed.close();
    await once(closed, 'close');
    const error = (await createUserGroupApi({
      baseUrl: `http://vendor:s3cret-pass@127.0.0.1:${port}`,
      apiKey,
      clock: realClock,
    })
      .rotate({ current_token: 'x' })
      .catch((caught: unknown) => caught)) as UpstreamError;
    expect(error.kind).toBe('unreachable');
    expect(error.message).toContain(`http://***@127.0.0.1:${port}/api/user`);
    expect(error.message).not.toContain('s3cret-pass');
    expect(error.message).not.toContain('vendor');
  });
});
