/**
 * A console with SCIM on, over real HTTP (the console's own node:http server in front of the real
 * SCIM route handlers), and a SCIM client as an identity provider holds one.
 */
import { request } from 'undici';
import { startConsoleOverHttp } from '@/lib/testing/console-over-http';
import { startRouteTestConsole } from '@/lib/testing/route-harness';

export const SCIM_TOKEN = 'scim-test-token-0123456789abcdef0123456789abcdef';

export async function startScimConsole(prefix: string, port: number) {
  const harness = await startRouteTestConsole(prefix, port, {
    SCIM_TOKEN,
    SCIM_GROUP_ROLES: 'Console Admins=admin, Console Support=support',
  });
  const http = await startConsoleOverHttp({
    port,
    routes: {
      '/api/scim/v2/Users': await import('@/app/api/scim/v2/Users/route'),
      '/api/scim/v2/Users/[id]': await import('@/app/api/scim/v2/Users/[id]/route'),
      '/api/scim/v2/Groups': await import('@/app/api/scim/v2/Groups/route'),
      '/api/scim/v2/Groups/[id]': await import('@/app/api/scim/v2/Groups/[id]/route'),
    },
    access: { token: null, trustedProxies: null, ownHosts: ['127.0.0.1'] },
  });
  const base = `${harness.origin}/api/scim/v2`;

  /** One SCIM request; answers its status, headers and JSON body (null when empty). */
  const scim = async (
    method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
    path: string,
    body?: unknown,
    headers: Record<string, string> = { authorization: `Bearer ${SCIM_TOKEN}` },
  ) => {
    const answer = await request(`${base}${path}`, {
      method,
      headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/scim+json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await answer.body.text();
    // biome-ignore lint/suspicious/noExplicitAny: a test reads the answer's fields as SCIM names them.
    const json = (text ? JSON.parse(text) : null) as any;
    return { status: answer.statusCode, headers: answer.headers, body: json };
  };

  const db = harness.server.database.db;
  return {
    harness,
    scim,
    db,
    /** The audit entries SCIM wrote, oldest first. */
    entries: () =>
      db
        .selectFrom('audit_event')
        .select(['action', 'operator_email', 'outcome', 'detail'])
        .where('operator_email', 'like', 'SCIM%')
        .orderBy('id')
        .execute(),
    async close() {
      await http.close();
      await harness.close();
    },
  };
}
