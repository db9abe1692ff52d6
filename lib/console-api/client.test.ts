import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { CONSOLE_UNREACHABLE_MESSAGE, ConsoleApiError, callConsoleRoute } from './client';

const answerSchema = z.object({ operator: z.object({ id: z.string() }) });

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

describe('callConsoleRoute', () => {
  it('sends JSON and returns the answer parsed with its schema', async () => {
    answer(201, { operator: { id: 'o1', extra: true } });
    await expect(callConsoleRoute('POST', '/api/operators', { a: 1 }, answerSchema)).resolves.toEqual({
      operator: { id: 'o1' },
    });
    expect(fetch).toHaveBeenCalledWith('/api/operators', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: '{"a":1}',
      cache: 'no-store',
    });
  });

  it.each([
    [200, { operator: { id: 1 } }],
    [200, 'not json'],
  ])('refuses an answer in another shape: %i %j', async (status, body) => {
    answer(status, body);
    const error = await failure(callConsoleRoute('PATCH', '/api/operators/o1', {}, answerSchema));
    expect(error).toMatchObject({
      code: 'internal',
      message: 'The console answered in an unexpected shape.',
    });
  });

  it('carries the console’s error: code, message, fields and retry delay', async () => {
    answer(429, {
      error: { code: 'rate_limited', message: 'Retry in 5 s.', fields: { name: 'x' }, retryAfterSeconds: 5 },
    });
    const error = await failure(callConsoleRoute('POST', '/api/x', {}, answerSchema));
    expect(error).toMatchObject({
      code: 'rate_limited',
      message: 'Retry in 5 s.',
      fields: { name: 'x' },
      retryAfterSeconds: 5,
    });
  });

  it('explains a failure without a console error body', async () => {
    answer(502, '<html>Bad gateway</html>');
    const error = await failure(callConsoleRoute('POST', '/api/x', {}, answerSchema));
    expect(error).toMatchObject({
      code: 'internal',
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
    const error = await failure(callConsoleRoute('POST', '/api/x', {}, answerSchema));
    expect(error).toMatchObject({ code: 'internal', message: CONSOLE_UNREACHABLE_MESSAGE });
  });
});
