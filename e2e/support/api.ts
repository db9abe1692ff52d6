import { createHash } from 'node:crypto';
import { type APIRequestContext, expect, request as playwrightRequest } from '@playwright/test';
import { supportState } from './auth-states';
import { rememberSecrets, tokensIn } from './seen-secrets';
import { consoleUrl } from './servers';

/** A request context signed in as one role (a saved state), sending the console's own Origin. */
export async function apiAs(storageState: string): Promise<APIRequestContext> {
  return playwrightRequest.newContext({
    baseURL: consoleUrl,
    storageState,
    extraHTTPHeaders: { origin: consoleUrl },
  });
}

/** POSTs a console call and remembers any token in the answer for the end-of-run log search. */
export async function postConsole(
  context: APIRequestContext,
  path: string,
  data: unknown,
): Promise<{ status: number; body: Record<string, unknown>; requestId: string }> {
  const response = await context.post(path, { data });
  const text = await response.text();
  rememberSecrets(...tokensIn(text));
  return {
    status: response.status(),
    body: JSON.parse(text) as Record<string, unknown>,
    requestId: response.headers()['x-request-id'] ?? '',
  };
}

/** Gets or creates the group `id` in Testing as support (named `name`, if given); answers its token. */
export async function seedTestingGroup(id: string, name?: string): Promise<string> {
  const support = await apiAs(supportState);
  try {
    const created = await postConsole(support, '/api/user-groups/testing/get-or-create', {
      user_group_id: id,
      ...(name === undefined ? {} : { name }),
    });
    expect(created.status).toBe(200);
    return (created.body.user_group as { token: string }).token;
  } finally {
    await support.dispose();
  }
}

export function fingerprint(token: string): string {
  return createHash('sha256').update(token).digest('hex').slice(0, 12);
}

export interface AuditRow {
  at: string;
  operator_id: string | null;
  operator_email: string | null;
  action: string;
  user_group_id: string | null;
  user_group_name: string | null;
  outcome: string;
  request_id: string;
  token_fingerprint: string | null;
  previous_token_fingerprint: string | null;
  detail: string | null;
}

/** The audit entries the filters select, newest first (first page). */
export async function auditEntries(
  context: APIRequestContext,
  filters: Record<string, string>,
): Promise<AuditRow[]> {
  // Reads included unless the caller says: the specs look for every entry a journey left.
  const response = await context.get(`/api/audit?${new URLSearchParams({ reads: 'include', ...filters })}`);
  expect(response.status()).toBe(200);
  return ((await response.json()) as { events: AuditRow[] }).events;
}
