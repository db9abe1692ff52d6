import { afterAll, describe, expect, it } from 'vitest';
import { startRouteTestConsole } from '@/lib/testing/route-harness';

// Security round 3, Low: five failed sign-ins for an operator's email, from anyone, made that
// operator's own step-up answer 429 during an incident. Proofs of a signed-in operator are counted
// per session and operator, never under the keys anonymous sign-ins fill.
const harness = await startRouteTestConsole('proofs', 3982, { CONSOLE_SIGN_IN_RATE_LIMIT: '5/60' });
const { origin, params } = harness;
const handleAuthRequest = (await import('@/lib/auth/proxy/route')).authRoute(
  (await import('@/lib/server')).consoleServer,
);
const stepUpRoute = (await import('@/app/api/step-up/route')).POST;

afterAll(() => harness.close());

const PASSWORD = 'a-long-enough-password';

const signInAttempt = (email: string, password: string) =>
  handleAuthRequest(
    new Request(`${origin}/api/auth/sign-in/email`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin },
      body: JSON.stringify({ email, password }),
    }),
  );

describe('proofs of a signed-in operator', () => {
  it('are not blocked by strangers’ failed sign-ins for their email', async () => {
    const email = 'oncall@proofs.example';
    const { cookie } = await harness.addOperator(email, 'support', PASSWORD);
    for (let attempt = 0; attempt < 6; attempt++) await signInAttempt(email, 'a-stranger-guessing');
    // The sign-in limit holds for that email…
    expect((await signInAttempt(email, PASSWORD)).status).toBe(429);
    // …and the operator already signed in still confirms it is them.
    const confirmed = await stepUpRoute(
      harness.request('POST', { password: PASSWORD }, { cookie }),
      params({}),
    );
    expect(confirmed.status).toBe(200);
  });

  it('are limited per session: a stolen session cannot guess faster than the limit', async () => {
    const { cookie } = await harness.addOperator('guessing@proofs.example', 'support', PASSWORD);
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 6; attempt++)
      statuses.push(
        (await stepUpRoute(harness.request('POST', { password: PASSWORD }, { cookie }), params({}))).status,
      );
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
  });
});
