import type { ChildProcess } from 'node:child_process';
import { mkdtemp } from 'node:fs/promises';
import path from 'node:path';
import { type Browser, expect as baseExpect, type Page, test } from '@playwright/test';
import Database from 'better-sqlite3';
import { adminCredentials, adminState } from './support/auth-states';
import { expectNoSeriousA11yViolations } from './support/axe';
import { e2eOnPostgres } from './support/postgres-database';
import { serviceCli, startNode, stopProcess, waitForHttp } from './support/processes';
import { consolePort, consoleUrl, e2eDataDir } from './support/servers';

/**
 * Passkeys in Chromium with its virtual authenticator (CDP WebAuthn: a platform authenticator that
 * keeps resident keys and verifies the user). WebAuthn refuses an IP address as relying party, and
 * the run's console is at http://127.0.0.1, so this spec starts a console of its own at
 * http://localhost (SQLite; the passkey store runs on PostgreSQL in Vitest), with a Customer and a
 * Testing environment: add a passkey on the account page, sign out, sign in with it, answer a
 * Customer step-up with it, remove it. The run's console shows why it offers no passkeys.
 */
// A console of its own answers its first pages slowly on a busy machine.
const expect = baseExpect.configure({ timeout: 20_000 });

test.skip(e2eOnPostgres, 'a console of its own on SQLite: runs in the SQLite pass');
test.use({ storageState: { cookies: [], origins: [] } });
test.describe.configure({ mode: 'serial' });

const ports = { console: consolePort + 20, service: consolePort + 21 };
const origin = `http://localhost:${ports.console}`;
const processes: ChildProcess[] = [];
let consoleDatabase = '';

test.beforeAll(async () => {
  test.setTimeout(180_000);
  const dataDir = await mkdtemp(path.join(e2eDataDir, 'passkeys-'));
  const serviceDatabase = path.join(dataDir, 'service.sqlite');
  const keyOf = async (environment: string) =>
    (await serviceCli(['keys', 'create', '--environment', environment, '--database', serviceDatabase]))
      .trim()
      .split('\n')
      .at(-1) as string;
  const testingKey = await keyOf('Testing');
  const customerKey = await keyOf('Customer');
  const service = startNode('lib/user-group-service/cli.ts', [
    'serve',
    '--port',
    String(ports.service),
    '--database',
    serviceDatabase,
    '--no-rate-limit',
  ]);
  processes.push(service);
  await waitForHttp(`http://127.0.0.1:${ports.service}/healthz`);
  consoleDatabase = path.join(dataDir, 'console', 'console.sqlite');
  processes.push(
    startNode('lib/launcher/start.ts', [], {
      PORT: String(ports.console),
      CONSOLE_URL: origin,
      DATA_DIR: path.join(dataDir, 'console'),
      USER_GROUP_API_URL: `http://127.0.0.1:${ports.service}`,
      USER_GROUP_API_KEY_TESTING: testingKey,
      USER_GROUP_API_KEY_CUSTOMER: customerKey,
      USER_GROUP_API_REQUESTS_PER_MINUTE: 'unlimited',
      CONSOLE_STEP_UP_MINUTES: '15',
    }),
  );
  await waitForHttp(origin, 150_000);
  // The first answers of a new console are slow on a busy machine: warm up the pages used here.
  for (const page of ['/sign-in', '/account', '/customer'])
    await fetch(`${origin}${page}`, { redirect: 'manual' });
});

test.afterAll(async () => {
  for (const child of processes.reverse()) await stopProcess(child);
});

/** Chromium's virtual authenticator for this page: resident keys, user verification, always "yes". */
async function addVirtualAuthenticator(page: Page) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
    },
  });
  return {
    credentials: async () =>
      (await cdp.send('WebAuthn.getCredentials', { authenticatorId })).credentials.length,
  };
}

/** Makes the admin's sessions older than the step-up window, as if 16 minutes had passed. */
function ageSessions() {
  const database = new Database(consoleDatabase);
  try {
    database
      .prepare(
        'update session set createdAt = ?, steppedUpAt = null where userId = (select id from user where email = ?)',
      )
      .run(new Date(Date.now() - 16 * 60_000).toISOString(), adminCredentials.email);
  } finally {
    database.close();
  }
}

test('a passkey is added on the account page, signs in on its own, answers a Customer step-up, and is removed', async ({
  page,
}) => {
  test.setTimeout(360_000);
  const authenticator = await addVirtualAuthenticator(page);
  await page.goto(`${origin}/sign-in`);
  const signIn = page.getByRole('form', { name: 'Sign in' });
  await signIn.getByLabel('Email').fill(adminCredentials.email);
  await signIn.getByLabel('Password').fill(adminCredentials.password);
  await signIn.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByTestId('operator-email')).toHaveText(adminCredentials.email, { timeout: 30_000 });

  // Add one, under a name.
  await page.goto(`${origin}/account`);
  await expect(page.getByText('None yet.')).toBeVisible();
  await page.getByRole('button', { name: 'Add a passkey' }).click();
  const form = page.getByRole('form', { name: 'Add a passkey' });
  await form.getByRole('button', { name: 'Continue' }).click();
  await expect(form.getByText('must not be empty')).toBeVisible();
  await form.getByLabel('Name of the passkey').fill('Virtual laptop');
  await expectNoSeriousA11yViolations(page, 'adding a passkey');
  await form.getByRole('button', { name: 'Continue' }).click();
  const list = page.getByRole('list', { name: 'Your passkeys' });
  await expect(list.getByText('Virtual laptop')).toBeVisible();
  expect(await authenticator.credentials()).toBe(1);
  await expectNoSeriousA11yViolations(page, 'account page with a passkey');

  // Sign out; sign in with the passkey alone.
  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page).toHaveURL(/\/sign-in/);
  await expectNoSeriousA11yViolations(page, 'sign-in page with passkeys');
  await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
  await expect(page.getByTestId('operator-email')).toHaveText(adminCredentials.email);

  // A Customer token after the step-up window: the dialog offers the passkey, which confirms.
  const id = `passkey-${Date.now().toString(36)}`;
  const created = await page.request.post(`${origin}/api/user-groups/customer/get-or-create`, {
    data: { user_group_id: id },
    headers: { origin },
  });
  expect(created.status()).toBe(200);
  ageSessions();
  await page.goto(`${origin}/customer/groups/${id}`);
  const panel = page.getByRole('region', { name: 'Token' });
  await panel.getByRole('button', { name: 'Show token' }).click();
  const dialog = page.getByRole('dialog', { name: 'Confirm it’s you' });
  await expect(dialog.getByRole('button', { name: 'Confirm with a passkey' })).toBeVisible();
  await expectNoSeriousA11yViolations(page, 'step-up dialog with a passkey');
  await dialog.getByRole('button', { name: 'Confirm with a passkey' }).click();
  await expect(dialog).toHaveCount(0);
  await expect(panel.getByRole('group', { name: 'Token' })).toBeVisible();

  // The password alone no longer opens the console: the passkey is the second step.
  await page.getByRole('button', { name: 'Sign out' }).click();
  await signIn.getByLabel('Email').fill(adminCredentials.email);
  await signIn.getByLabel('Password').fill(adminCredentials.password);
  await signIn.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(/\/account$/, { timeout: 30_000 });
  await expect(page.getByRole('heading', { name: 'Confirm your second factor' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Confirm with a passkey' })).toBeFocused();
  await expectNoSeriousA11yViolations(page, 'second step with a passkey');
  await page.goto(`${origin}/customer/groups/${id}`);
  await expect(page).toHaveURL(/\/account$/);
  await page.getByRole('button', { name: 'Confirm with a passkey' }).click();
  await expect(page.getByText('Virtual laptop')).toBeVisible();

  // Remove it, after a confirmation.
  await page.goto(`${origin}/account`);
  await list.getByRole('button', { name: 'Remove the passkey Virtual laptop' }).click();
  const confirm = page.getByRole('dialog', { name: 'Remove the passkey Virtual laptop?' });
  await expectNoSeriousA11yViolations(page, 'removing a passkey');
  await confirm.getByRole('button', { name: 'Keep it' }).click();
  await expect(confirm).toHaveCount(0);
  await expect(list.getByText('Virtual laptop')).toBeVisible();
  await list.getByRole('button', { name: 'Remove the passkey Virtual laptop' }).click();
  await confirm.getByRole('button', { name: 'Remove the passkey' }).click();
  await expect(confirm).toHaveCount(0);
  await expect(page.getByText('None yet.')).toBeVisible();

  // Gone from the console: the authenticator's copy no longer signs in.
  await page.getByRole('button', { name: 'Sign out' }).click();
  await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'did not sign you in' })).toBeVisible();

  // Each step is on record.
  const database = new Database(consoleDatabase, { readonly: true });
  try {
    const recorded = database
      .prepare(
        "select action, outcome, detail from audit_event where action in ('passkey.add', 'passkey.remove', 'step-up') or (action = 'sign-in' and detail = 'a passkey') order by id",
      )
      .all();
    expect(recorded).toEqual([
      { action: 'passkey.add', outcome: 'success', detail: 'Virtual laptop' },
      { action: 'sign-in', outcome: 'success', detail: 'a passkey' },
      { action: 'step-up', outcome: 'success', detail: 'passkey' },
      { action: 'step-up', outcome: 'success', detail: 'passkey' },
      { action: 'passkey.remove', outcome: 'success', detail: 'Virtual laptop' },
      { action: 'sign-in', outcome: 'passkey_not_found', detail: 'a passkey' },
    ]);
  } finally {
    database.close();
  }
});

test('at an IP address the account page says why there are no passkeys, and the sign-in page offers none', async ({
  browser,
}) => {
  const context = await newRunContext(browser);
  const page = await context.newPage();
  await page.goto(`${consoleUrl}/account`);
  await expect(page.getByText(/Passkeys cannot be used at this console’s address/)).toBeVisible();
  await expect(page.getByRole('button', { name: 'Add a passkey' })).toHaveCount(0);
  await expectNoSeriousA11yViolations(page, 'account page without passkeys');
  await context.close();
  const stranger = await browser.newContext();
  const signIn = await stranger.newPage();
  await signIn.goto(`${consoleUrl}/sign-in`);
  await expect(signIn.getByRole('button', { name: 'Sign in', exact: true })).toBeVisible();
  await expect(signIn.getByRole('button', { name: 'Sign in with a passkey' })).toHaveCount(0);
  await stranger.close();
});

/** The run's console (http://127.0.0.1), as its admin. */
function newRunContext(browser: Browser) {
  return browser.newContext({ storageState: adminState });
}
