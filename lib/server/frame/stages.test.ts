import { describe, expect, it, vi } from 'vitest';
import * as z from 'zod/mini';
import { testClock } from '@/lib/clock';
import { ConsoleError } from '@/lib/console-error';
import type { ConsoleServer, Operator } from '../index';
import type { Action } from './action';
import { answerRequest } from './answer';
import { decideStage } from './approval';
import { entryOf, onRecord, requestFacts } from './audited';
import { bodyStage } from './body';
import { requestFrame } from './frame';
import { anyone } from './guards';
import { checkStage, loadStage } from './load';
import { assertStepUpPlaced, stepUpScope } from './step-up';

// Each stage of the one frame on its own, without a console: the route tests (route-frame.test.ts
// and every feature's) hold them together.

const operator = { id: 'op-1', email: 'op@example.com' } as Operator;
const json = (body: string, type = 'application/json') =>
  new Request('http://console.test/api/x', { method: 'POST', headers: { 'content-type': type }, body });

function action(overrides: Partial<Action<string, unknown, unknown, unknown>> = {}) {
  return {
    spec: { name: 'x', method: 'POST', path: '/api/x', permission: 'console:use' },
    server: {} as ConsoleServer,
    request: json('{}'),
    requestId: 'req-1',
    params: {},
    operator,
    environment: null,
    body: undefined,
    subject: undefined,
    filedUnder: null,
    approved: null,
    reason: undefined,
    ...overrides,
  } as Action<string, unknown, unknown, unknown>;
}

describe('the answer stage', () => {
  it('answers with a request id, no-store, and a ConsoleError in the documented shape', async () => {
    const answer = await answerRequest('x', async () => {
      throw new ConsoleError('conflict', 'Already done.');
    });
    expect(answer.status).toBe(409);
    expect(answer.headers.get('cache-control')).toBe('no-store');
    expect(answer.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    expect((await answer.json()).error.code).toBe('conflict');
  });

  it('answers an unknown failure `internal`, never its message', async () => {
    const answer = await answerRequest('x', async () => {
      throw new Error('secret detail');
    });
    expect(answer.status).toBe(500);
    expect(await answer.text()).not.toContain('secret detail');
  });

  it('lets a caller that is no browser answer failures in its own shape', async () => {
    const answer = await answerRequest(
      'x',
      async () => {
        throw new ConsoleError('conflict', 'no');
      },
      () => new Response('scim', { status: 418 }),
    );
    expect(answer.status).toBe(418);
    expect(answer.headers.get('x-request-id')).toBeTruthy();
  });
});

describe('the guard stage', () => {
  const clock = testClock();
  const server = { clock } as unknown as ConsoleServer;

  it('runs nothing after a refusal, and tells onRefused who was refused', async () => {
    const run = vi.fn();
    const onRefused = vi.fn(async () => {});
    const handler = requestFrame(
      {
        name: 'x',
        server: async () => server,
        guard: async () => ({ refused: new ConsoleError('forbidden', 'No.'), actor: operator }),
        onRefused,
      },
      run,
    );
    const answer = await handler(json('{}'), { params: Promise.resolve({}) });
    expect(answer.status).toBe(403);
    expect(run).not.toHaveBeenCalled();
    expect(onRefused).toHaveBeenCalledWith(expect.any(ConsoleError), operator, expect.anything());
  });

  it('hands the stages after it the actor, the params and the server', async () => {
    const handler = requestFrame({ name: 'x', server: async () => server, guard: anyone }, async (input) =>
      Response.json({ actor: input.actor, params: input.params, same: input.server === server }),
    );
    const answer = await handler(json('{}'), { params: Promise.resolve({ id: '7' }) });
    expect(await answer.json()).toEqual({ actor: null, params: { id: '7' }, same: true });
  });
});

describe('the body stage', () => {
  const spec = {
    name: 'x',
    method: 'POST',
    path: '/api/x',
    permission: 'console:use',
    body: z.object({ n: z.number() }),
  };

  it('reads the body with the definition’s schema', async () => {
    const read = action({ spec: spec as never, request: json('{"n":1}') });
    await bodyStage(read);
    expect(read.body).toEqual({ n: 1 });
  });

  it('refuses a body nested deeper than 64 levels, and one of another type', async () => {
    const deep = action({ spec: spec as never, request: json(`${'['.repeat(65)}${']'.repeat(65)}`) });
    await expect(bodyStage(deep)).rejects.toMatchObject({ code: 'invalid_request' });
    const form = action({ spec: spec as never, request: json('n=1', 'application/x-www-form-urlencoded') });
    await expect(bodyStage(form)).rejects.toMatchObject({ code: 'unsupported_media_type' });
  });

  it('reads nothing for an approved action: its body is the approved one', async () => {
    const approved = action({
      spec: spec as never,
      approved: {} as never,
      body: { n: 2 },
      request: json('{"n":3}'),
    });
    await bodyStage(approved);
    expect(approved.body).toEqual({ n: 2 });
  });
});

describe('the load stage', () => {
  it('hands load the environment and lets the subject name it and where its entries are filed', async () => {
    const load = vi.fn(async () => ({ job: 'j-1' }));
    const loading = action({
      spec: {
        name: 'x',
        method: 'POST',
        path: '/api/jobs/[id]',
        permission: 'console:use',
        load,
        environmentOf: () => 'Customer',
        audit: { action: 'bulk.download', filedUnder: (subject: { job: string }) => subject.job },
      } as never,
      environment: 'Testing',
    });
    await loadStage(loading);
    expect(load).toHaveBeenCalledWith(expect.objectContaining({ environment: 'Testing', operator }));
    expect(loading.environment).toBe('Customer');
    expect(loading.filedUnder).toBe('j-1');
  });

  it('checks the subject once it is read', () => {
    const refused = action({
      spec: {
        load: async () => 1,
        check: () => {
          throw new ConsoleError('conflict', 'managed');
        },
      } as never,
    });
    expect(() => checkStage(refused)).toThrow('managed');
  });
});

describe('the step-up stage', () => {
  it('asks where the definition says', () => {
    expect(stepUpScope('always', null)).toBe('privileges');
    expect(stepUpScope('own-account', null)).toBe('own-account');
    expect(stepUpScope('own-account-password', null)).toBe('own-account');
    expect(stepUpScope('in-production', 'Customer')).toEqual({ environment: 'Customer' });
    expect(stepUpScope(undefined, 'Customer')).toBeNull();
  });

  it('refuses a production step-up that cannot say where it is', () => {
    expect(() => assertStepUpPlaced({ name: 'x', path: '/api/jobs/[id]', stepUp: 'in-production' })).toThrow(
      /environmentOf/,
    );
    expect(() =>
      assertStepUpPlaced({
        name: 'x',
        path: '/api/user-groups/[environment]/rotate',
        stepUp: 'in-production',
      }),
    ).not.toThrow();
  });
});

describe('the approval stage', () => {
  it('decides nothing for a route without approval, whatever the URL says', async () => {
    const plain = action({
      request: new Request('http://console.test/api/x?approval=a-1', { method: 'POST' }),
    });
    expect(await decideStage(plain)).toBeNull();
    expect(plain.approved).toBeNull();
  });
});

describe('the audited stage', () => {
  it('files an entry under its subject’s id, naming the request', () => {
    const filed = action({
      spec: { audit: { action: 'bulk.download', request: () => ({ detail: 'file.csv' }) } } as never,
      filedUnder: 'job-1',
      body: {},
    });
    const entry = entryOf(filed, operator, 'started', requestFacts(filed));
    expect(entry).toMatchObject({
      action: 'bulk.download',
      requestId: 'job-1',
      detail: 'file.csv; request req-1',
    });
  });

  it('puts a change on record before it runs, and runs nothing when it cannot', async () => {
    const auditLog = {
      record: vi.fn(async () => {
        throw new ConsoleError('audit_unavailable', 'no log');
      }),
      settle: vi.fn(),
    };
    const run = vi.fn(async () => 'done');
    const record = onRecord({ auditLog } as unknown as ConsoleServer, 'req-1');
    await expect(
      record.change({ action: 'sign-out', operator, requestId: 'req-1' }, run, () => 'success'),
    ).rejects.toMatchObject({
      code: 'audit_unavailable',
    });
    expect(run).not.toHaveBeenCalled();
  });
});
