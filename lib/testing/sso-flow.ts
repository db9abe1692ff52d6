/**
 * Drives one single sign-on through the console's /api/auth handler and a mock IdP
 * (lib/testing/mock-oidc.ts), as a browser would: start, the IdP's form, the callback.
 */
import type { MockIdentity } from './mock-oidc';

type Handler = (request: Request) => Promise<Response>;

export interface SsoOutcome {
  /** Where the callback sent the browser. */
  location: string;
  /** Whether the callback set a session cookie. */
  signedIn: boolean;
  /** The cookies the callback set, as a browser would send them back. */
  cookie: string;
}

function cookiesOf(response: Response): string {
  return response.headers
    .getSetCookie()
    .map((cookie) => cookie.split(';')[0])
    .join('; ');
}

export async function signInThroughSso(
  handle: Handler,
  consoleOrigin: string,
  identity: Partial<MockIdentity> & { email: string },
  startBody: Record<string, unknown> = {},
): Promise<SsoOutcome> {
  const start = await handle(
    new Request(`${consoleOrigin}/api/auth/sign-in/social`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: consoleOrigin },
      body: JSON.stringify({ provider: 'oidc', callbackURL: '/', ...startBody }),
    }),
  );
  if (start.status !== 200) throw new Error(`SSO start answered ${start.status}: ${await start.text()}`);
  const { url } = (await start.json()) as { url: string };
  const authorize = new URL(url);
  const form = new URLSearchParams(authorize.searchParams);
  form.set('login_email', identity.email);
  if (identity.emailVerified ?? true) form.set('email_verified', 'on');
  if (identity.subject) form.set('subject', identity.subject);
  if (identity.authAgeSeconds !== undefined) form.set('auth_age', String(identity.authAgeSeconds ?? 'none'));
  const idp = await fetch(`${authorize.origin}/authorize`, {
    method: 'POST',
    body: form,
    redirect: 'manual',
  });
  const callback = idp.headers.get('location');
  if (!callback) throw new Error(`the IdP answered ${idp.status} without a redirect`);
  const answer = await handle(new Request(callback, { headers: { cookie: cookiesOf(start) } }));
  return {
    location: answer.headers.get('location') ?? '',
    signedIn: answer.headers.getSetCookie().some((cookie) => /session_token=[^;]+/.test(cookie)),
    cookie: cookiesOf(answer),
  };
}
