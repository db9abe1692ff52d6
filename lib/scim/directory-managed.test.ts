/**
 * An operator the directory manages, seen from the console: the operators list and its CSV say so
 * (with each operator's second factor, way in and last sign-in), and the console's own operator
 * route refuses to change their role or status (409), on record.
 */
import { parse } from 'csv-parse/sync';
import { afterAll, describe, expect, it } from 'vitest';
import { listOperators } from '@/lib/operators/store';
import { startScimConsole } from './test-support';

const scimConsole = await startScimConsole('scim-managed', 3964);
const { scim, db, harness } = scimConsole;
afterAll(() => scimConsole.close());

const created = await scim('POST', '/Users', { userName: 'managed@example.com', displayName: 'Managed One' });
const managedId = created.body.id as string;

describe('a directory-managed operator', () => {
  it('is marked on the operators list, signing in with nothing yet', async () => {
    const operators = await listOperators(harness.server);
    expect(operators.find((operator) => operator.id === managedId)).toMatchObject({
      managedByDirectory: true,
      signsInWith: 'none yet',
      role: 'viewer',
    });
    expect(operators.find((operator) => operator.email === harness.admin.email)).toMatchObject({
      managedByDirectory: false,
      signsInWith: 'password',
    });
  });

  it.each([
    [{ role: 'admin' }, 'operator.set-role'],
    [{ disabled: true }, 'operator.disable'],
  ])('keeps its role and status from the console: %j is 409, on record', async (change, action) => {
    const { PATCH } = await import('@/app/api/operators/[id]/route');
    const answer = await PATCH(harness.request('PATCH', change), harness.params({ id: managedId }));
    expect(answer.status).toBe(409);
    const body = (await answer.json()) as { error: { code: string; message: string } };
    expect(body.error).toMatchObject({ code: 'conflict' });
    expect(body.error.message).toContain('managed by your directory');
    const row = await db
      .selectFrom('user')
      .select(['role', 'banned'])
      .where('id', '=', managedId)
      .executeTakeFirst();
    expect(row?.role).toBe('viewer');
    expect(Boolean(row?.banned)).toBe(false);
    const entry = await db
      .selectFrom('audit_event')
      .select(['action', 'outcome'])
      .where('action', '=', action)
      .orderBy('id', 'desc')
      .executeTakeFirst();
    expect(entry).toEqual({ action, outcome: 'conflict' });
  });
});

describe('the operators CSV', () => {
  it('holds each operator’s role, status, second factor, way in, directory and last sign-in, on record', async () => {
    const { GET } = await import('@/app/api/operators/export/route');
    const answer = await GET(harness.request('GET'), harness.params({}));
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(answer.headers.get('content-disposition')).toMatch(
      /^attachment; filename="operators-\d{8}-\d{4}\.csv"$/,
    );
    const rows = parse(await answer.text(), { columns: true }) as Record<string, string>[];
    expect(Object.keys(rows[0] ?? {})).toEqual([
      'email',
      'name',
      'role',
      'status',
      'second factor',
      'signs in with',
      'managed by directory',
      'last sign-in (UTC)',
      'added (UTC)',
    ]);
    const byEmail = new Map(rows.map((row) => [row.email, row]));
    expect(byEmail.get('managed@example.com')).toMatchObject({
      name: 'Managed One',
      role: 'viewer',
      status: 'active',
      'second factor': 'none',
      'signs in with': 'none yet',
      'managed by directory': 'yes',
      'last sign-in (UTC)': 'never',
    });
    const admin = byEmail.get(harness.admin.email);
    expect(admin).toMatchObject({ role: 'admin', 'signs in with': 'password', 'managed by directory': 'no' });
    expect(admin?.['last sign-in (UTC)']).toMatch(/^\d{4}-\d{2}-\d{2}T/);
    const entry = await db
      .selectFrom('audit_event')
      .select(['operator_email', 'outcome', 'detail'])
      .where('action', '=', 'operators.export')
      .executeTakeFirst();
    expect(entry).toEqual({
      operator_email: harness.admin.email,
      outcome: 'success',
      detail: `${rows.length} operators`,
    });
  });

  it('neutralises a formula in a name the directory sent', async () => {
    await scim('POST', '/Users', { userName: 'formula@example.com', displayName: '=HYPERLINK("x")' });
    const { GET } = await import('@/app/api/operators/export/route');
    const text = await (await GET(harness.request('GET'), harness.params({}))).text();
    expect(text).toContain(`"'=HYPERLINK(""x"")"`);
  });
});
