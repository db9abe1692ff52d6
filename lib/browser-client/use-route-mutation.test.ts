import { MutationObserver, QueryClient, type UseMutationOptions } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { consoleRoutes } from '@/lib/console-api/routes';
import { ConsoleApiError } from './console-client';
import { routeMutationOptions } from './use-route-mutation';

/** Every request answers `status` with `body`. */
function answer(status: number, body: unknown) {
  const fetchStub = vi.fn<typeof fetch>(async () => new Response(JSON.stringify(body), { status }));
  vi.stubGlobal('fetch', fetchStub);
  return fetchStub;
}

/** Runs the options as useMutation would, without React. */
function run<Answer, Variables>(options: UseMutationOptions<Answer, Error, Variables>, variables: Variables) {
  return new MutationObserver(new QueryClient(), options).mutate(variables);
}

const noEffects = () => ({ refreshPage: vi.fn(), invalidate: vi.fn(async () => undefined) });

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('routeMutationOptions', () => {
  it('sends the body to the route’s path with its params, and hands the checked answer on', async () => {
    const fetchStub = answer(200, { done: true, extra: 'dropped' });
    const onSuccess = vi.fn();
    const options = routeMutationOptions(
      consoleRoutes.resetSecondFactor,
      { params: { id: 'o 1' }, onSuccess },
      noEffects(),
    );
    await expect(run(options, undefined)).resolves.toEqual({ done: true });
    const [url, init] = fetchStub.mock.calls[0] ?? [];
    expect([url, init?.method]).toEqual(['/api/operators/o%201/two-factor/reset', 'POST']);
    expect(onSuccess.mock.calls[0]?.[0]).toEqual({ done: true });
  });

  it('refreshes the page before the page’s own onSuccess', async () => {
    answer(200, { done: true });
    const calls: string[] = [];
    const options = routeMutationOptions(
      consoleRoutes.resetSecondFactor,
      { params: { id: 'o1' }, refresh: true, onSuccess: () => void calls.push('onSuccess') },
      { ...noEffects(), refreshPage: () => calls.push('refresh') },
    );
    await run(options, undefined);
    expect(calls).toEqual(['refresh', 'onSuccess']);
  });

  it('hands a request waiting for approval to onWaiting, not to onSuccess nor onError, and refreshes nothing', async () => {
    answer(202, { approval: { id: 'ap-7' } });
    const effects = noEffects();
    const onSuccess = vi.fn();
    const onError = vi.fn();
    const onWaiting = vi.fn();
    const options = routeMutationOptions(
      consoleRoutes.resetSecondFactor,
      { params: { id: 'o1' }, refresh: true, onSuccess, onError, onWaiting },
      effects,
    );
    await expect(run(options, undefined)).resolves.toEqual({ waiting: { approvalId: 'ap-7' } });
    expect(onWaiting).toHaveBeenCalledWith({ approvalId: 'ap-7' });
    expect([onSuccess, onError, effects.refreshPage].map((fn) => fn.mock.calls.length)).toEqual([0, 0, 0]);
  });

  it('refreshes nothing when refused, and hands the console’s error to onError', async () => {
    answer(403, { error: { code: 'forbidden', message: 'Not allowed.' } });
    const effects = noEffects();
    const onError = vi.fn();
    const options = routeMutationOptions(
      consoleRoutes.resetSecondFactor,
      { params: { id: 'o1' }, refresh: true, onError },
      effects,
    );
    await expect(run(options, undefined)).rejects.toBeInstanceOf(ConsoleApiError);
    expect(effects.refreshPage).not.toHaveBeenCalled();
    expect(onError.mock.calls[0]?.[0]).toMatchObject({ code: 'forbidden', message: 'Not allowed.' });
  });

  it.each([
    ['done', 200, { ended: 1 }],
    ['refused', 500, { error: { code: 'internal', message: 'No.' } }],
  ])('reads the cached query again once %s, and settles only after it', async (_case, status, body) => {
    const fetchStub = answer(status, body);
    const order: string[] = [];
    let readAgain: () => void = () => undefined;
    let invalidating: () => void = () => undefined;
    const invalidated = new Promise<void>((resolve) => {
      invalidating = resolve;
    });
    const invalidate = vi.fn(
      (key: readonly unknown[]) =>
        new Promise<void>((resolve) => {
          order.push(`invalidate ${key.join('/')}`);
          readAgain = resolve;
          invalidating();
        }),
    );
    const options = routeMutationOptions(
      consoleRoutes.endSessions,
      { invalidates: ['account', 'sessions'], onSettled: () => void order.push('onSettled') },
      { ...noEffects(), invalidate },
    );
    const settled = run(options, { others: true }).then(
      () => order.push('settled'),
      () => order.push('settled'),
    );
    // Once the query is being read again, and before it has been: nothing else has happened yet.
    await invalidated;
    expect(order).toEqual(['invalidate account/sessions']);
    readAgain();
    await settled;
    expect(order).toEqual(['invalidate account/sessions', 'onSettled', 'settled']);
    expect(JSON.parse(String(fetchStub.mock.calls[0]?.[1]?.body))).toEqual({ others: true });
  });
});
