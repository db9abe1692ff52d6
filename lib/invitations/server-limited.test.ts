import { afterAll, describe, expect, it } from 'vitest';
import { startRouteTestConsole } from '@/lib/testing/route-harness';

// Accepting an invitation is limited like sign-in (here 3 attempts a minute per client), in a bucket
// of its own: a guessing client is refused with 429 and a retry delay, links or passwords alike.
const harness = await startRouteTestConsole('invitations-limited', 3972, {
  CONSOLE_SIGN_IN_RATE_LIMIT: '3/60',
});
const handleInvitationAccept = (await import('@/app/api/invitation/accept/route')).POST;
const handleInvitationLookup = (await import('@/app/api/invitation/route')).POST;

afterAll(() => harness.close());

const from = (address: string, body: unknown) =>
  harness.request('POST', body, { cookie: '', headers: { 'x-console-peer-address': address } });

describe('accepting an invitation, limited', () => {
  it('refuses a client past the limit with 429 and a retry delay; another client goes on', async () => {
    for (let attempt = 0; attempt < 3; attempt++) {
      const guess = await handleInvitationLookup(from('198.51.100.7', { secret: `guess-${attempt}` }));
      expect(guess.status).toBe(404);
    }
    const refused = await handleInvitationAccept(
      from('198.51.100.7', {
        secret: 'guess-4',
        password: 'a-long-enough-password',
        confirmPassword: 'a-long-enough-password',
      }),
    );
    expect(refused.status).toBe(429);
    expect((await refused.json()).error.code).toBe('rate_limited');
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);

    const other = await handleInvitationLookup(from('198.51.100.8', { secret: 'guess-5' }));
    expect(other.status).toBe(404);
  });
});
