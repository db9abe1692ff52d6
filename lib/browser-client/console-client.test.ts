import { afterEach, describe, expect, it, vi } from 'vitest';
import { consoleRoutes, routePath } from '@/lib/console-api/routes';
import { CONSOLE_UNREACHABLE_MESSAGE, ConsoleApiError, callRoute, downloadRoute } from './console-client';

const operator = {
  id: 'o1',
  email: 'a@b.example',
  name: 'A',
  role: 'viewer',
  disabled: false,
  twoFactorEnabled: false,
  secondFactor: 'none',
  lastSignInAt: null,
  signsInWith: 'none yet',
  managedByDirectory: false,
  createdAt: '2026-11-24T00:00:00.000Z',
  invitationExpiresAt: '2026-11-27T00:00:00.000Z',
};
const invitation = {
  link: 'http://localhost/invitation#secret',
  expiresAt: '2026-11-27T00:00:00.000Z',
  mail: null,
};
const newOperator = {
  email: 'a@b.example',
  name: 'A',
  role: 'viewer',
} as const;
const createOperator = () => callRoute(consoleRoutes.createOperator, { body: newOperator });

function answer(status: number, body: unknown) {
  vi.stubGlobal(
    'fetch',
    vi.fn(async () => new Response(typeof body === 'string' ? body : JSON.stringify(body), { status })),
  );
}

async function failure(promise: Promise<unknown>): Promise<ConsoleApiError> {
  const error = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(ConsoleApiError);
  return error as ConsoleApiError;
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('callRoute', () => {
  it('sends JSON to the route’s method and path and returns the answer parsed with its schema', async () => {
    answer(201, { operator: { ...operator, extra: true }, invitation });
    await expect(createOperator()).resolves.toEqual({ operator, invitation });
    expect(fetch).toHaveBeenCalledWith('/api/operators', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(newOperator),
      cache: 'no-store',
      signal: undefined,
    });
  });

  it('answers a 202 as the request waiting for approval to a caller that follows one, refuses it in words to one that does not', async () => {
    answer(202, { approval: { id: 'ap-1', status: 'pending' } });
    await expect(
      callRoute(consoleRoutes.createOperator, { body: newOperator, mayWait: true }),
    ).resolves.toEqual({ waiting: { approvalId: 'ap-1' } });
    const refused = await failure(createOperator());
    expect(refused.status).toBe(202);
    expect(refused.message).toBe('Waiting for approval by another operator: nothing has been done yet.');
    answer(202, { nothing: true });
    expect(
      (await failure(callRoute(consoleRoutes.createOperator, { body: newOperator, mayWait: true }))).message,
    ).toBe('The console answered in an unexpected shape.');
  });

  it('fills the path’s params in, encoded', async () => {
    answer(200, { operator });
    await callRoute(consoleRoutes.updateOperator, { params: { id: 'a/b?c' }, body: { disabled: true } });
    expect(fetch).toHaveBeenCalledWith(
      '/api/operators/a%2Fb%3Fc',
      expect.objectContaining({ method: 'PATCH' }),
    );
    expect(routePath(consoleRoutes.jobTokens, { id: 'j 1' })).toBe('/api/jobs/j%201/tokens');
  });

  it.each([
    [200, { operator: { id: 1 } }],
    [200, 'not json'],
  ])('refuses an answer in another shape: %i %j', async (status, body) => {
    answer(status, body);
    const error = await failure(
      callRoute(consoleRoutes.updateOperator, { params: { id: 'o1' }, body: { disabled: true } }),
    );
    expect(error).toMatchObject({
      code: 'internal',
      message: 'The console answered in an unexpected shape.',
    });
  });

  it('carries the console’s error: code, message, fields and retry delay', async () => {
    answer(429, {
      error: { code: 'rate_limited', message: 'Retry in 5 s.', fields: { name: 'x' }, retryAfterSeconds: 5 },
    });
    const error = await failure(createOperator());
    expect(error).toMatchObject({
      code: 'rate_limited',
      status: 429,
      explained: true,
      message: 'Retry in 5 s.',
      fields: { name: 'x' },
      retryAfterSeconds: 5,
    });
  });

  it('explains a failure without a console error body', async () => {
    answer(502, '<html>Bad gateway</html>');
    const error = await failure(createOperator());
    expect(error).toMatchObject({
      code: 'internal',
      status: 502,
      explained: false,
      message: 'The console answered 502 without an explanation.',
    });
  });

  it('says so when the console cannot be reached', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => {
        throw new TypeError('Failed to fetch');
      }),
    );
    const error = await failure(createOperator());
    expect(error).toMatchObject({ code: 'internal', status: null, message: CONSOLE_UNREACHABLE_MESSAGE });
  });
});

describe('downloadRoute', () => {
  it('POSTs to a file route without a body and hands back the file and its name', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(
        async () =>
          new Response('line,token\n1,abc\n', {
            headers: { 'content-disposition': 'attachment; filename="rotate-testing-1234-tokens.csv"' },
          }),
      ),
    );
    const { file, name } = await downloadRoute(consoleRoutes.jobTokens, { params: { id: 'j1' } });
    expect(name).toBe('rotate-testing-1234-tokens.csv');
    expect(await file.text()).toBe('line,token\n1,abc\n');
    expect(fetch).toHaveBeenCalledWith('/api/jobs/j1/tokens', {
      method: 'POST',
      headers: { Accept: 'application/json' },
      cache: 'no-store',
      signal: undefined,
    });
  });

  it('carries the console’s refusal instead of a file', async () => {
    answer(409, { error: { code: 'conflict', message: 'The tokens were downloaded and erased on …' } });
    const error = await failure(downloadRoute(consoleRoutes.jobTokens, { params: { id: 'j1' } }));
    expect(error).toMatchObject({ code: 'conflict' });
  });
});
