import { statSync } from 'node:fs';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { realClock } from '@/lib/clock';
import { startRouteTestConsole } from '@/lib/testing/route-harness';

// The audit page's button: POST /api/audit/verify on a real console (SQLite, or PostgreSQL in the
// PostgreSQL pass), with the signing key the console generated into DATA_DIR.
const harness = await startRouteTestConsole('audit-chain', 3421);
const { server, params } = harness;
const { sealAll } = await import('./sealer');
const { auditSigningKey, SIGNING_KEY_FILE } = await import('./signing-key');
const verifyRoute = (await import('@/app/api/audit/verify/route')).POST;

afterAll(() => harness.close());

const dataDir = process.env.DATA_DIR ?? '';
const signer = auditSigningKey(dataDir, null);
const sealNow = () => sealAll({ db: server.database.db, signer, clock: realClock, settleDelayMs: 0 });
const verify = async (cookie?: string) => {
  const response = await verifyRoute(
    harness.request('POST', undefined, cookie ? { cookie } : {}),
    params({}),
  );
  return { status: response.status, body: await response.json() };
};

describe('verifying the audit chain from the console', () => {
  it('keeps the signing key in DATA_DIR, readable by the console alone', () => {
    expect(statSync(path.join(dataDir, SIGNING_KEY_FILE)).mode & 0o777).toBe(0o600);
  });

  it('answers an admin the report, on record, and names an entry edited in the database since the last press', async () => {
    await sealNow();
    const clean = await verify();
    expect(clean.status).toBe(200);
    expect(clean.body).toMatchObject({ ok: true, firstProblem: null, keyId: signer.keyId });
    expect(clean.body.entries).toBeGreaterThan(0);

    // A press verifies what was sealed since the one before (the CLI verifies all): the entry
    // edited is one sealed after the first press (its own entry on record, for one).
    await sealNow();
    const { id } = await server.database.db
      .selectFrom('audit_seal')
      .select('through_id as id')
      .orderBy('id', 'desc')
      .limit(1)
      .executeTakeFirstOrThrow();
    expect(id).toBeGreaterThan(clean.body.verifiedThrough);
    await sql`update audit_event set operator_email = 'someone-else@example.com' where id = ${id}`.execute(
      server.database.db,
    );
    const tampered = await verify();
    expect(tampered.body).toMatchObject({
      ok: false,
      firstProblem: { kind: 'changed', entryId: id, message: `entry ${id} was changed` },
    });
    const [entry] = await server.database.db
      .selectFrom('audit_event')
      .selectAll()
      .where('action', '=', 'audit.verify')
      .orderBy('id', 'desc')
      .limit(1)
      .execute();
    expect(entry).toMatchObject({ outcome: 'success', detail: `entry ${id} was changed (1 in all)` });
  });

  it('refuses a support operator: verifying is for admins', async () => {
    const { cookie } = await harness.addOperator(
      'support@audit-chain.example',
      'support',
      'a-long-enough-password',
    );
    expect(await verify(cookie)).toMatchObject({ status: 403 });
  });
});
