import type { ChildProcess } from 'node:child_process';
import { mkdtemp } from 'node:fs/promises';
import path from 'node:path';
import { type APIRequestContext, type Browser, expect, type Page, request, test } from '@playwright/test';
import { adminCredentials } from './support/auth-states';
import { expectNoSeriousA11yViolations } from './support/axe';
import { inviteAndAccept } from './support/invitations';
import {
  createDatabase,
  databaseUrl,
  dropDatabase,
  e2eAuthSecret,
  e2eOnPostgres,
  queryDatabase,
} from './support/postgres-database';
import { serviceCli, startNode, stopProcess, waitForHttp } from './support/processes';
import { consolePort, e2eDataDir } from './support/servers';
import { signInThroughPage } from './support/sign-in';

/**
 * Two-person approval (CONSOLE_REQUIRE_APPROVAL) on two consoles sharing one PostgreSQL database:
 * a Customer delete asked for in one browser is approved in another, carried out once and on record
 * with both names; a rejection, a withdrawal and an expiry do nothing; two approvers pressing
 * Approve at once on the two consoles carry it out once. Deleting needs the admin role: the
 * requester is the run's first admin, the approvers two more admins.
 */
test.skip(!e2eOnPostgres, 'two consoles share a PostgreSQL database: runs in the PostgreSQL pass');
test.use({ storageState: { cookies: [], origins: [] } });
test.describe.configure({ mode: 'serial' });

const ports = { a: consolePort + 30, b: consolePort + 31, service: consolePort + 32 };
const origin = (port: number) => `http://127.0.0.1:${port}`;
const database = `console_approvals_${consolePort}`;
const firstApprover = {
  email: 'first-approver@approvals.example',
  name: 'First Approver',
  password: 'first-approver-password',
  // Invited as viewer: a support person can approve a Customer bulk rotation, so inviting one waits.
  role: 'viewer' as const,
};
const secondApprover = {
  email: 'second-approver@approvals.example',
  name: 'Second Approver',
  password: 'second-approver-password',
  // Invited as viewer: a support person can approve a Customer bulk rotation, so inviting one waits.
  role: 'viewer' as const,
};
const approvers = [firstApprover, secondApprover];
const processes: ChildProcess[] = [];
const contexts: APIRequestContext[] = [];

async function context(port: number, cookie = ''): Promise<APIRequestContext> {
  const made = await request.newContext({
    baseURL: origin(port),
    storageState: { cookies: [], origins: [] },
    extraHTTPHeaders: { origin: origin(port), ...(cookie ? { cookie } : {}) },
  });
  contexts.push(made);
  return made;
}

async function signIn(port: number, email: string, password: string): Promise<string> {
  const answer = await (await context(port)).post('/api/auth/sign-in/email', { data: { email, password } });
  expect(answer.status()).toBe(200);
  return answer
    .headersArray()
    .filter((header) => header.name.toLowerCase() === 'set-cookie')
    .map((header) => header.value.split(';')[0])
    .join('; ');
}

const sessions = { requester: '', first: '', second: '' };

test.beforeAll(async () => {
  test.setTimeout(240_000);
  const dataDir = await mkdtemp(path.join(e2eDataDir, 'approvals-'));
  const serviceDatabase = path.join(dataDir, 'service.sqlite');
  const customerKey = (
    await serviceCli(['keys', 'create', '--environment', 'Customer', '--database', serviceDatabase])
  )
    .trim()
    .split('\n')
    .at(-1);
  expect(customerKey).toBeTruthy();
  await createDatabase(database);
  const service = startNode('lib/user-group-service/cli.ts', [
    'serve',
    '--port',
    String(ports.service),
    '--database',
    serviceDatabase,
  ]);
  processes.push(service);
  await waitForHttp(`${origin(ports.service)}/healthz`);
  for (const [name, port] of [
    ['a', ports.a],
    ['b', ports.b],
  ] as const) {
    processes.push(
      startNode('lib/launcher/start.ts', [], {
        PORT: String(port),
        DATA_DIR: path.join(dataDir, `console-${name}`),
        DATABASE_URL: databaseUrl(database),
        BETTER_AUTH_SECRET: e2eAuthSecret,
        // One key sealing the requests' tokens, as every console on one database needs.
        CONSOLE_JOB_TOKEN_KEY: 'ab'.repeat(32),
        USER_GROUP_API_URL: origin(ports.service),
        USER_GROUP_API_KEY_CUSTOMER: customerKey,
        USER_GROUP_API_REQUESTS_PER_MINUTE: 'unlimited',
        CONSOLE_STEP_UP_MINUTES: '720',
        CONSOLE_REQUIRE_APPROVAL: 'delete:Customer,bulk-rotate:Customer,grant-admin',
      }),
    );
  }
  await Promise.all([waitForHttp(origin(ports.a), 150_000), waitForHttp(origin(ports.b), 150_000)]);
  sessions.requester = await signIn(ports.a, adminCredentials.email, adminCredentials.password);
  const admin = await context(ports.a, sessions.requester);
  for (const approver of approvers) {
    await inviteAndAccept(admin, approver, origin(ports.a));
    // Granting admin is itself under the policy: these two are made admins behind its back, as if
    // someone other than the requester had brought them in (the directory, another admin).
    await queryDatabase(database, `update "user" set role = 'admin' where email = $1`, [approver.email]);
    await queryDatabase(
      database,
      `delete from operator_sponsor where user_id = (select id from "user" where email = $1)`,
      [approver.email],
    );
  }
  sessions.first = await signIn(ports.b, firstApprover.email, firstApprover.password);
  sessions.second = await signIn(ports.a, secondApprover.email, secondApprover.password);
});

test.afterAll(async () => {
  for (const made of contexts) await made.dispose();
  for (const child of processes.reverse()) await stopProcess(child);
  await dropDatabase(database);
});

async function createGroup(id: string): Promise<string> {
  const answer = await (await context(ports.a, sessions.requester)).post(
    '/api/user-groups/customer/get-or-create',
    {
      data: { user_group_id: id },
    },
  );
  expect(answer.status()).toBe(200);
  return ((await answer.json()) as { user_group: { token: string } }).user_group.token;
}

async function requestDelete(id: string): Promise<string> {
  const token = await createGroup(id);
  const answer = await (await context(ports.a, sessions.requester)).post('/api/user-groups/customer/delete', {
    data: { user_group_id: id, current_token: token, approvalReason: `${id}: the customer left` },
  });
  expect(answer.status()).toBe(202);
  return ((await answer.json()) as { approval: { id: string } }).approval.id;
}

const decide = async (port: number, cookie: string, id: string, decision: Record<string, string>) =>
  (await context(port, cookie)).post(`/api/user-groups/customer/delete?approval=${id}`, { data: decision });

const deleteEntries = (id: string) =>
  queryDatabase<{ operator_email: string; detail: string; outcome: string }>(
    database,
    `select operator_email, detail, outcome from audit_event where action = 'delete' and user_group_id = $1`,
    [id],
  );

async function signedInPage(
  browser: Browser,
  port: number,
  credentials: { email: string; password: string },
): Promise<Page> {
  const page = await (await browser.newContext({ storageState: { cookies: [], origins: [] } })).newPage();
  await signInThroughPage(page, credentials, { origin: origin(port) });
  return page;
}

test('a Customer delete asked for in one browser is approved in another: done once, on record with both names', async ({
  browser,
}) => {
  const id = 'approved-in-two-browsers';
  await createGroup(id);
  const requester = await signedInPage(browser, ports.a, adminCredentials);
  await requester.goto(`${origin(ports.a)}/customer/groups/${id}`);
  await requester.getByRole('button', { name: 'Show token' }).click();
  await requester.getByRole('button', { name: 'Delete user group' }).click();
  const dialog = requester.getByRole('dialog');
  await dialog.getByLabel(`Type ${id} to confirm`).fill(id);
  await dialog.getByLabel('Reason (another operator reads it)').fill('The customer closed their account');
  await dialog.getByRole('button', { name: 'Ask for approval' }).click();
  const state = requester.getByTestId('approval-state');
  await expect(state).toContainText('Waiting for approval by another operator');

  const approver = await signedInPage(browser, ports.b, firstApprover);
  await expect(approver.getByTestId('approvals-waiting')).toHaveText('1');
  await approver.goto(`${origin(ports.b)}/approvals`);
  const item = approver.getByRole('listitem', { name: `Delete a user group: user group ${id}` });
  await expect(item).toContainText('The customer closed their account');
  // The approver's own words: the request waits for them, in production.
  await expect(item).toContainText('Waiting for your decision');
  await expect(item).toContainText('in Customer (production)');
  await item.getByRole('button', { name: 'Approve' }).click();
  const approveDialog = approver.getByRole('dialog');
  await expect(approveDialog).toContainText('Delete a user group in Customer (production)?');
  await approveDialog.getByRole('button', { name: 'Approve and carry out' }).click();
  await expect(approver.getByRole('status').filter({ hasText: 'Approved by you and done.' })).toBeVisible();

  // The requester's page follows without a reload.
  await expect(state).toContainText(`Approved by ${firstApprover.email} and done.`, { timeout: 15_000 });
  await expectNoSeriousA11yViolations(requester, 'a Customer delete approved and done');
  const entries = await deleteEntries(id);
  expect(entries).toHaveLength(1);
  expect(entries[0]).toMatchObject({ operator_email: adminCredentials.email, outcome: 'success' });
  expect(entries[0]?.detail).toContain(`approved by ${firstApprover.email}`);
  await requester.context().close();
  await approver.context().close();
});

test('a rejection, a withdrawal and an expiry do nothing', async () => {
  const rejected = await requestDelete('rejected-by-approver');
  expect(
    (await decide(ports.b, sessions.first, rejected, { decision: 'reject', reason: 'still used' })).status(),
  ).toBe(200);
  const withdrawn = await requestDelete('withdrawn-by-requester');
  expect((await decide(ports.b, sessions.requester, withdrawn, { decision: 'withdraw' })).status()).toBe(200);
  const expired = await requestDelete('expired-unapproved');
  await queryDatabase(database, `update approval_request set expires_at = $1 where id = $2`, [
    new Date(Date.now() - 1000).toISOString(),
    expired,
  ]);
  for (const [approval, state] of [
    [rejected, 'rejected'],
    [withdrawn, 'withdrawn'],
    [expired, 'expired'],
  ] as const) {
    expect((await decide(ports.a, sessions.second, approval, { decision: 'approve' })).status()).toBe(409);
    const read = await (await context(ports.a, sessions.requester)).get(`/api/approvals/${approval}`);
    expect(((await read.json()) as { approval: { state: string } }).approval.state).toBe(state);
  }
  for (const id of ['rejected-by-approver', 'withdrawn-by-requester', 'expired-unapproved'])
    expect(await deleteEntries(id)).toHaveLength(0);
});

test('two approvers press Approve at once on two consoles: the delete is done once', async () => {
  const id = 'approved-twice-at-once';
  const approval = await requestDelete(id);
  const answers = await Promise.all([
    decide(ports.b, sessions.first, approval, { decision: 'approve' }),
    decide(ports.a, sessions.second, approval, { decision: 'approve' }),
  ]);
  expect(answers.map((answer) => answer.status()).sort()).toEqual([200, 409]);
  expect(await deleteEntries(id)).toHaveLength(1);
});

test('making someone admin on the operators page asks for a reason and waits; approved, it is done', async ({
  browser,
}) => {
  const promoted = {
    email: 'promoted@approvals.example',
    name: 'Promoted',
    password: 'promoted-password',
    role: 'viewer' as const,
  };
  const { id } = await inviteAndAccept(await context(ports.a, sessions.requester), promoted, origin(ports.a));
  const requester = await signedInPage(browser, ports.a, adminCredentials);
  await requester.goto(`${origin(ports.a)}/operators`);
  const row = requester.getByTestId('operator-row').filter({ hasText: promoted.email });
  await row.getByLabel(`Role of ${promoted.email}`).selectOption('admin');
  await row.getByRole('button', { name: 'Change role' }).click();
  const dialog = requester.getByRole('dialog');
  await dialog.getByLabel('Reason (another operator reads it)').fill('Joins the on-call rota');
  await dialog.getByRole('button', { name: 'Ask for approval' }).click();
  const state = row.getByTestId('approval-state');
  await expect(state).toContainText('Waiting for approval by another operator');
  // While it waits, the select says the role they hold, marked waiting; nothing else changed.
  await expect(row.getByLabel(`Role of ${promoted.email}`)).toHaveValue('viewer');
  await expect(row.getByTestId('operator-row-waiting')).toHaveText('waiting for approval');
  await expect(row.getByTestId('operator-row-role')).toHaveText('viewer');
  await requester.setViewportSize({ width: 375, height: 800 });
  await row.scrollIntoViewIfNeeded();
  await row.screenshot({ path: test.info().outputPath('operators-row-waiting-375.png') });
  await requester.setViewportSize({ width: 1280, height: 800 });
  const [pending] = await queryDatabase<{ id: string }>(
    database,
    `select id from approval_request where path = $1 and state = 'pending'`,
    [`/api/operators/${id}`],
  );
  const approved = await (await context(ports.b, sessions.first)).patch(
    `/api/operators/${id}?approval=${pending?.id}`,
    { data: { decision: 'approve' } },
  );
  expect(approved.status()).toBe(200);
  await expect(state).toContainText(`Approved by ${firstApprover.email} and done.`, { timeout: 15_000 });
  // The row follows the decision without a reload.
  await expect(row.getByTestId('operator-row-role')).toHaveText('admin');
  await expect(row.getByLabel(`Role of ${promoted.email}`)).toHaveValue('admin');
  await expect(row.getByTestId('operator-row-waiting')).toHaveCount(0);
  await expectNoSeriousA11yViolations(requester, 'a grant approved and done on the operators page');

  // Adding an operator as admin with no mail server: their link could only be shown here, so the
  // console says at once how a new admin gets in, and nobody is invited.
  const form = requester.getByRole('form', { name: 'Add an operator' });
  await form.getByLabel('Email').fill('new-admin@approvals.example');
  await form.getByLabel('Name').fill('New Admin');
  await form.getByLabel('Role').selectOption('admin');
  await form.getByRole('button', { name: 'Invite operator' }).click();
  await expect(form.getByRole('alert')).toContainText(
    'Invite them as viewer with their own link; once they have signed in, ask to make them admin.',
  );
  const added = await queryDatabase(database, `select id from "user" where email = $1`, [
    'new-admin@approvals.example',
  ]);
  expect(added).toHaveLength(0);
  await requester.context().close();
});
