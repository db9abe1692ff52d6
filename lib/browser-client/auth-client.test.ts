import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { authApi } from './auth-client';
import { CONSOLE_UNREACHABLE_MESSAGE, ConsoleApiError } from './console-client';

const ORIGIN = 'http://console.test';
// The client keeps the fetch it was made with, so one stub answers every test.
let respond: typeof fetch = async () => new Response(null, { status: 500 });
const requested: string[] = [];
const fetchStub = vi.fn<typeof fetch>(async (input, init) => {
  requested.push(String(input));
  return respond(input, init);
});

function answer(status: number, body: unknown) {
  respond = async () =>
    new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}

function sent(): { url: string; method: string; contentType: string | null; body: unknown } {
  const [input, init] = fetchStub.mock.calls.at(-1) ?? [];
  const headers = new Headers(init?.headers);
  return {
    url: String(input),
    method: String(init?.method),
    contentType: headers.get('content-type'),
    body: typeof init?.body === 'string' ? JSON.parse(init.body) : init?.body,
  };
}

async function refusal(promise: Promise<unknown>): Promise<ConsoleApiError> {
  const error = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(ConsoleApiError);
  return error as ConsoleApiError;
}

beforeAll(() => {
  vi.stubGlobal('window', { location: { origin: ORIGIN } });
  vi.stubGlobal('fetch', fetchStub);
});
afterAll(() => {
  vi.unstubAllGlobals();
});
beforeEach(() => {
  fetchStub.mockClear();
});

describe('authApi', () => {
  it('signs in with a JSON body on the allow-listed endpoint', async () => {
    answer(200, { redirect: false, token: 'x', user: {} });
    await authApi.signInWithEmail({ email: 'a@b.example', password: 'secret' });
    expect(sent()).toEqual({
      url: `${ORIGIN}/api/auth/sign-in/email`,
      method: 'POST',
      contentType: 'application/json',
      body: { email: 'a@b.example', password: 'secret' },
    });
  });

  it.each([
    [
      'a wrong password, in the console’s words',
      401,
      { error: { code: 'unauthenticated', message: 'The email or the password is wrong.' } },
      'unauthenticated',
      undefined,
      'The email or the password is wrong.',
    ],
    [
      'the console’s rate limit',
      429,
      { error: { code: 'rate_limited', message: 'retry in 17 s', retryAfterSeconds: 17 } },
      'rate_limited',
      17,
      'retry in 17 s',
    ],
    [
      'better-auth’s own shape (never passed on), read as unexplained',
      401,
      { code: 'INVALID_EMAIL_OR_PASSWORD', message: 'Invalid email or password' },
      'internal',
      undefined,
      'The console answered 401 without an explanation.',
    ],
    [
      'a body of another shape',
      500,
      { code: 42, error: 'nope' },
      'internal',
      undefined,
      'The console answered 500 without an explanation.',
    ],
  ])('reports a refusal: %s', async (_case, status, body, code, retryAfterSeconds, message) => {
    answer(status, body);
    const error = await refusal(authApi.signInWithEmail({ email: 'a@b.example', password: 'x' }));
    expect({
      status: error.status,
      code: error.code,
      explained: error.explained,
      retryAfterSeconds: error.retryAfterSeconds,
      message: error.message,
    }).toEqual({ status, code, explained: code !== 'internal', retryAfterSeconds, message });
  });

  it('says so when the console cannot be reached', async () => {
    respond = async () => {
      throw new TypeError('Failed to fetch');
    };
    const error = await refusal(authApi.signOut());
    expect(error.status).toBeNull();
    expect(error.message).toBe(CONSOLE_UNREACHABLE_MESSAGE);
  });

  it('starts single sign-on with the return paths and hands back the provider’s address', async () => {
    answer(200, { url: 'https://idp.example/authorize?state=s', redirect: true });
    await expect(
      authApi.startSingleSignOn({ callbackURL: '/audit?action=rotate', errorCallbackURL: '/sign-in' }),
    ).resolves.toBe('https://idp.example/authorize?state=s');
    expect(sent()).toMatchObject({
      url: `${ORIGIN}/api/auth/sign-in/social`,
      body: { provider: 'oidc', callbackURL: '/audit?action=rotate', errorCallbackURL: '/sign-in' },
    });
  });

  it.each([[{ redirect: true }], [{ url: 'javascript:alert(1)', redirect: true }]])(
    'refuses a single sign-on answer without a web address: %j',
    async (body) => {
      answer(200, body);
      await expect(
        authApi.startSingleSignOn({ callbackURL: '/', errorCallbackURL: '/sign-in' }),
      ).rejects.toThrow('unexpected shape');
    },
  );

  it('signs out and changes the password on their endpoints, ending other sessions', async () => {
    answer(200, { success: true });
    await authApi.signOut();
    expect(sent()).toMatchObject({ url: `${ORIGIN}/api/auth/sign-out`, method: 'POST' });
    await authApi.changePassword({ currentPassword: 'old', newPassword: 'new-password-1' });
    expect(sent()).toEqual({
      url: `${ORIGIN}/api/auth/change-password`,
      method: 'POST',
      contentType: 'application/json',
      body: { currentPassword: 'old', newPassword: 'new-password-1', revokeOtherSessions: true },
    });
  });
});

afterAll(() => {
  // Every call above went to an allow-listed endpoint; none asked for the session.
  expect(requested.length).toBeGreaterThan(0);
  expect(requested.filter((url) => url.includes('get-session'))).toEqual([]);
});
