import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tokenFingerprint } from '@/lib/audit/fingerprint';
import type { ConsoleDatabase } from '@/lib/db/console-database';
import { whileInsertsFail } from '@/lib/testing/failing-inserts';
import { startRouteTestConsole } from '@/lib/testing/route-harness';
import { createUserGroupApi } from '@/lib/user-group-api/client';

// Show token against a real service and a real console database (SQLite, or PostgreSQL with
// CONSOLE_TEST_DATABASE=postgres): reading never creates, and every step is on record first.
const harness = await startRouteTestConsole('show', 3994);
const { listAuditEvents } = await import('@/lib/audit/store');
const { findDirectoryEntry } = await import('@/lib/directory/store');
const getOrCreate = (await import('@/app/api/user-groups/[environment]/get-or-create/route')).POST;
const remove = (await import('@/app/api/user-groups/[environment]/delete/route')).POST;
const showToken = (await import('@/app/api/user-groups/[environment]/show-token/route')).POST;

/** The service itself, behind the console's back: what another system (or person) does. */
const serviceApi = createUserGroupApi({
  baseUrl: harness.service.url,
  apiKey: harness.testingKey,
  clock: harness.server.clock,
});

const sessions = { admin: harness.adminCookie, viewer: '' };
const post = (body: unknown, cookie = sessions.admin) => harness.request('POST', body, { cookie });
const inTesting = harness.params({ environment: 'testing' });

/** A group made through the console (so its directory has it), answering its token. */
async function consoleGroup(id: string, extra: Record<string, unknown> = {}): Promise<string> {
  const created = await getOrCreate(post({ user_group_id: id, ...extra }), inTesting);
  expect(created.status).toBe(200);
  return ((await created.json()) as { user_group: { token: string } }).user_group.token;
}

/** Whether the service has the group, asked without leaving one behind. */
async function serviceHas(id: string): Promise<boolean> {
  const { new_user_group, user_group } = await serviceApi.getOrCreate({ user_group_id: id });
  if (new_user_group)
    await serviceApi.deleteUserGroup({ user_group_id: id, current_token: user_group.token });
  return !new_user_group;
}

async function database(): Promise<ConsoleDatabase> {
  return harness.server.database;
}

async function history(id: string) {
  const { events } = await listAuditEvents(await database(), { group: id });
  return events;
}

/** Runs `run` while audit entries of one action cannot be written (the others can). */
async function whileActionUnrecorded<T>(action: string, run: () => Promise<T>): Promise<T> {
  const { db, dialect } = await database();
  if (dialect === 'postgres') {
    await sql`create function delete_entries_off() returns trigger language plpgsql as $$ begin if new.action = ${sql.lit(action)} then raise exception 'off'; end if; return new; end $$`.execute(
      db,
    );
    await sql`create trigger delete_entries_off before insert on audit_event for each row execute function delete_entries_off()`.execute(
      db,
    );
  } else {
    await sql`create trigger delete_entries_off before insert on audit_event when new.action = ${sql.lit(action)} begin select raise(abort, 'off'); end`.execute(
      db,
    );
  }
  try {
    return await run();
  } finally {
    if (dialect === 'postgres') {
      await sql`drop trigger delete_entries_off on audit_event`.execute(db);
      await sql`drop function delete_entries_off`.execute(db);
    } else {
      await sql`drop trigger delete_entries_off`.execute(db);
    }
  }
}

beforeAll(async () => {
  sessions.viewer = (
    await harness.addOperator('viewer@show.example', 'viewer', 'a-long-enough-password')
  ).cookie;
});

afterAll(() => harness.close());

describe('show token', () => {
  it('answers the current token of a group the service has, on record as show-token', async () => {
    const token = await consoleGroup('show-live', { name: 'Live Ltd' });
    const shown = await showToken(post({ user_group_id: 'show-live' }), inTesting);
    expect(shown.status).toBe(200);
    expect(await shown.json()).toMatchObject({
      gone: false,
      user_group: { provided_id: 'show-live', name: 'Live Ltd', token },
    });
    const [entry] = await history('show-live');
    expect(entry).toMatchObject({
      action: 'show-token',
      outcome: 'success',
      environment: 'Testing',
      token_fingerprint: tokenFingerprint(token),
    });
  });

  it('never re-creates a group deleted behind the console’s back: deletes it again, answers gone', async () => {
    const token = await consoleGroup('show-gone', { name: 'Gone Ltd', mapping: { sales: 'wh-1' } });
    await serviceApi.deleteUserGroup({ user_group_id: 'show-gone', current_token: token });

    const shown = await showToken(post({ user_group_id: 'show-gone' }), inTesting);
    expect(shown.status).toBe(200);
    const text = await shown.text();
    expect(JSON.parse(text)).toEqual({ gone: true });
    expect(text).not.toMatch(/[0-9a-f]{64}/);
    expect(await serviceHas('show-gone')).toBe(false);

    // Both steps on record, the look first, under one request id; the token only as a fingerprint.
    const [undo, look] = await history('show-gone');
    expect(look).toMatchObject({ action: 'show-token', outcome: 'gone', environment: 'Testing' });
    expect(look?.detail).toContain('deleted again at once');
    expect(undo).toMatchObject({ action: 'delete', outcome: 'success', environment: 'Testing' });
    expect(undo?.detail).toContain('Undid an accidental re-creation');
    expect(undo?.previous_token_fingerprint).toMatch(/^[0-9a-f]{12}$/);
    expect(undo?.request_id).toBe(look?.request_id);
    expect(Number(undo?.id)).toBeGreaterThan(Number(look?.id));

    // The directory now knows it is gone, and keeps what it recorded (for Create it again).
    const entry = await findDirectoryEntry((await database()).db, 'Testing', 'show-gone');
    expect(entry).toMatchObject({
      deletedBy: 'admin@show.example',
      name: 'Gone Ltd',
      mapping: { sales: 'wh-1' },
    });
  });

  it('creates nothing for an id the console never knew, and leaves the directory without it', async () => {
    const shown = await showToken(post({ user_group_id: 'show-never-known' }), inTesting);
    expect(await shown.json()).toEqual({ gone: true });
    expect(await serviceHas('show-never-known')).toBe(false);
    expect(await findDirectoryEntry((await database()).db, 'Testing', 'show-never-known')).toBeNull();
    const [undo] = await history('show-never-known');
    expect(undo?.detail).toContain('Undid an accidental creation');
  });

  it('creates nothing for a group the console deleted, and keeps who deleted it', async () => {
    const token = await consoleGroup('show-deleted');
    await remove(post({ user_group_id: 'show-deleted', current_token: token }), inTesting);
    const before = await findDirectoryEntry((await database()).db, 'Testing', 'show-deleted');
    const shown = await showToken(post({ user_group_id: 'show-deleted' }), inTesting);
    expect(await shown.json()).toEqual({ gone: true });
    expect(await serviceHas('show-deleted')).toBe(false);
    const after = await findDirectoryEntry((await database()).db, 'Testing', 'show-deleted');
    expect(after?.deletedAt).toBe(before?.deletedAt);
  });

  it('asks the service nothing when the look cannot be recorded', async () => {
    const token = await consoleGroup('show-unrecorded');
    await serviceApi.deleteUserGroup({ user_group_id: 'show-unrecorded', current_token: token });
    const { database } = harness.server;
    const refused = await whileInsertsFail(database, 'audit_event', () =>
      showToken(post({ user_group_id: 'show-unrecorded' }), inTesting),
    );
    expect(refused.status).toBe(503);
    expect((await refused.json()).error.code).toBe('audit_unavailable');
    expect(await serviceHas('show-unrecorded')).toBe(false);
  });

  it('says so when the group it created cannot be deleted again, and the directory knows it exists', async () => {
    const token = await consoleGroup('show-stuck');
    await serviceApi.deleteUserGroup({ user_group_id: 'show-stuck', current_token: token });
    const shown = await whileActionUnrecorded('delete', () =>
      showToken(post({ user_group_id: 'show-stuck' }), inTesting),
    );
    expect(shown.status).toBe(503);
    const text = await shown.text();
    expect(text).not.toMatch(/[0-9a-f]{64}/);
    const { error } = JSON.parse(text);
    expect(error.code).toBe('audit_unavailable');
    expect(error.message).toContain('looking at its token created it again');
    expect(error.message).toContain('could not delete it again: its audit log could not be written.');
    // The truth on every side: the service has it, the directory has it live, the look is settled.
    expect(await serviceHas('show-stuck')).toBe(true);
    const entry = await findDirectoryEntry((await database()).db, 'Testing', 'show-stuck');
    expect(entry?.deletedAt).toBeNull();
    const [look] = await history('show-stuck');
    expect(look).toMatchObject({ action: 'show-token', outcome: 'audit_unavailable' });
  });

  it('refuses a viewer, on record, with no token and no look', async () => {
    const token = await consoleGroup('show-viewer');
    const refused = await showToken(post({ user_group_id: 'show-viewer' }, sessions.viewer), inTesting);
    expect(refused.status).toBe(403);
    expect(await refused.text()).not.toContain(token);
    const [entry] = await history('show-viewer');
    expect(entry).toMatchObject({
      action: 'show-token',
      outcome: 'forbidden',
      operator_email: 'viewer@show.example',
    });
  });

  it('refuses bad input with a clear error, and an environment that is not one', async () => {
    const empty = await showToken(post({}), inTesting);
    expect(empty.status).toBe(400);
    expect((await empty.json()).error).toMatchObject({
      code: 'invalid_request',
      fields: { user_group_id: expect.any(String) },
    });
    const unknown = await showToken(post({ user_group_id: 'x' }), {
      params: Promise.resolve({ environment: 'production' }),
    });
    expect(unknown.status).toBe(404);
  });
});
