import { type APIRequestContext, expect, request as playwrightRequest } from '@playwright/test';
import { rememberSecrets } from './seen-secrets';
import { consoleUrl } from './servers';

export interface InvitedOperator {
  email: string;
  name: string;
  password: string;
  role: 'viewer' | 'support' | 'admin';
}

/** The secret of an invitation link: its fragment, which no browser sends. */
function invitationSecret(link: string): string {
  return new URL(link).hash.slice(1);
}

/**
 * Adds an operator as the console does: `admin` invites them, and they accept the link with their
 * own password from a request context of nobody (their session is then dropped). The link's secret
 * and the password are remembered for the end-of-run search of the logs.
 */
export async function inviteAndAccept(
  admin: APIRequestContext,
  operator: InvitedOperator,
  /** Another console than the run's own (its admin's context must send that console's Origin). */
  base = consoleUrl,
): Promise<{ id: string; link: string }> {
  rememberSecrets(operator.password);
  const created = await admin.post(`${base}/api/operators`, {
    data: { email: operator.email, name: operator.name, role: operator.role },
  });
  expect(created.status()).toBe(201);
  const { operator: added, invitation } = (await created.json()) as {
    operator: { id: string };
    invitation: { link: string };
  };
  const secret = invitationSecret(invitation.link);
  rememberSecrets(secret, invitation.link);
  // Nobody's: inside a test, a new context would take the project's signed-in state.
  const anonymous = await playwrightRequest.newContext({
    storageState: { cookies: [], origins: [] },
    baseURL: base,
    extraHTTPHeaders: { origin: base },
  });
  try {
    const accepted = await anonymous.post('/api/invitation/accept', {
      data: { secret, password: operator.password, confirmPassword: operator.password },
    });
    expect(accepted.status()).toBe(200);
    expect((await anonymous.post('/api/auth/sign-out', { data: {} })).status()).toBe(200);
  } finally {
    await anonymous.dispose();
  }
  return { id: added.id, link: invitation.link };
}
