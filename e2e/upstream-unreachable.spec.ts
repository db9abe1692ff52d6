import type { ChildProcess } from 'node:child_process';
import { mkdtemp } from 'node:fs/promises';
import path from 'node:path';
import { expect, request as playwrightRequest, test } from '@playwright/test';
import { adminCredentials, type Credentials } from './support/auth-states';
import { expectNoSeriousA11yViolations } from './support/axe';
import { inviteAndAccept } from './support/invitations';
import { serviceCli, startNode, stopProcess, waitForHttp } from './support/processes';
import { e2eDataDir } from './support/servers';
import { signInThroughPage } from './support/sign-in';

/**
 * A second console pointed (like a vendor deployment) at a service this test owns, so the test can
 * stop the upstream mid-session.
 */
const servicePort = 4312;
const consolePort = 3312;
const serviceUrl = `http://127.0.0.1:${servicePort}`;
const consoleUrl = `http://127.0.0.1:${consolePort}`;

const supportOfThisConsole: Credentials = {
  email: 'support@unreachable.example',
  password: 'unreachable-support-password',
  name: 'Support of this console',
};

test('names the upstream when it stops answering mid-session, and keeps the input', async ({
  page,
  browser,
}) => {
  // Two consoles' worth of work on a shared 2-core machine: a service, a console, two operators.
  test.setTimeout(240_000);
  const dataDir = await mkdtemp(path.join(e2eDataDir, 'unreachable-'));
  const database = path.join(dataDir, 'service.sqlite');
  const apiKey = (await serviceCli(['keys', 'create', '--environment', 'Testing', '--database', database]))
    .trim()
    .split('\n')
    .at(-1);
  expect(apiKey).toBeTruthy();

  const processes: ChildProcess[] = [];
  try {
    const service = startNode('lib/user-group-service/cli.ts', [
      'serve',
      '--port',
      String(servicePort),
      '--database',
      database,
    ]);
    processes.push(service);
    await waitForHttp(`${serviceUrl}/healthz`);
    const consoleServer = startNode('lib/launcher/start.ts', [], {
      PORT: String(consolePort),
      DATA_DIR: path.join(dataDir, 'console'),
      USER_GROUP_API_URL: serviceUrl,
      USER_GROUP_API_KEY: apiKey,
      USER_GROUP_API_ENVIRONMENT: 'Testing',
    });
    processes.push(consoleServer);
    await waitForHttp(consoleUrl);

    await signInThroughPage(page, adminCredentials, { origin: consoleUrl });
    // The one key is Testing's: Customer says it is not configured, naming the variable to an admin.
    await page.goto(`${consoleUrl}/customer`);
    await expect(page.getByRole('status').filter({ hasText: 'not configured' })).toContainText(
      'USER_GROUP_API_KEY_CUSTOMER',
    );
    // The header says how each environment's service answers.
    const serviceStatus = page.getByRole('banner').getByRole('list', { name: 'Service status' });
    await expect(serviceStatus.getByRole('listitem').filter({ hasText: 'Testing' })).toHaveText(
      'Testing: answering',
    );
    await expect(page.getByRole('banner').getByText(/^checked \d\d:\d\d UTC$/)).toBeVisible();
    await expect(serviceStatus.getByRole('listitem').filter({ hasText: 'Customer' })).toHaveText(
      'Customer: not set up',
    );
    const admin = await playwrightRequest.newContext({
      storageState: await page.context().storageState(),
      extraHTTPHeaders: { origin: consoleUrl },
    });
    try {
      await inviteAndAccept(admin, { ...supportOfThisConsole, role: 'support' }, consoleUrl);
    } finally {
      await admin.dispose();
    }
    // A draft job of three groups, made while the service answers (nothing is sent yet).
    const drafted = await page.request.post(`${consoleUrl}/api/user-groups/testing/jobs/get-or-create`, {
      data: { source: 'waiting.csv', csv: 'user_group_id\nwaiting-1\nwaiting-2\nwaiting-3\n' },
      headers: { origin: consoleUrl },
    });
    expect(drafted.status()).toBe(200);
    const jobId = ((await drafted.json()) as { id: string }).id;
    await page.goto(`${consoleUrl}/testing/new`);
    const form = page.getByRole('form', { name: 'Create a user group' });
    await form.getByLabel('User group ID').fill('reachable-first');
    await form.getByRole('button', { name: 'Create user group' }).click();
    await expect(page.getByRole('region', { name: 'User group' })).toContainText('Created');

    await stopProcess(service);
    await form.getByLabel('User group ID').fill('after-the-stop');
    await form.getByRole('button', { name: 'Create user group' }).click();
    const alert = form.getByRole('alert');
    await expect(alert).toContainText('could not be reached');
    await expect(alert).toContainText(`${serviceUrl}/api/user`);
    await expect(form.getByLabel('User group ID')).toHaveValue('after-the-stop');

    // The header says so too, once its probe (kept 5 s) is asked again.
    const testingStatus = page
      .getByRole('banner')
      .getByRole('list', { name: 'Service status' })
      .getByRole('listitem')
      .filter({ hasText: 'Testing' });
    await expect(async () => {
      await page.reload();
      await expect(testingStatus).toHaveText(/^Testing: not answering since \d\d:\d\d UTC$/, {
        timeout: 2_000,
      });
    }).toPass({ timeout: 30_000 });
    await expectNoSeriousA11yViolations(page, 'the header with a service not answering');

    // A job started now waits for the service, and says so rather than sitting at 0.
    await page.goto(`${consoleUrl}/testing/bulk/${jobId}`);
    await page.getByRole('button', { name: 'Run 3 rows' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Run the job' }).click();
    await expect(page.getByTestId('job-status')).toHaveText('Running');
    await expect(page.getByRole('status').filter({ hasText: 'Waiting for the Testing service' })).toHaveText(
      /^Waiting for the Testing service: not answering since \d\d:\d\d UTC, retrying\.$/,
      { timeout: 30_000 },
    );
    await expectNoSeriousA11yViolations(page, 'a job waiting for its service');
    await page.getByRole('button', { name: 'Cancel job' }).click();
    // The dialog's buttons say what they do.
    await expect(page.getByRole('dialog').getByRole('button', { name: 'Keep it running' })).toBeVisible();
    await page.getByRole('dialog').getByRole('button', { name: 'Cancel the job' }).click();
    await expect(page.getByTestId('job-status')).toHaveText('Cancelled');
    // No row produced a token: no download of tokens is offered, and the note says why.
    await expect(page.getByRole('button', { name: 'Download the result with tokens' })).toHaveCount(0);
    await expect(page.getByTestId('tokens-note')).toHaveText(
      'No row produced a token: there are no tokens to download.',
    );

    // Support reads what to do, not which variable to set: that is for an admin.
    const supportContext = await browser.newContext();
    try {
      const supportPage = await supportContext.newPage();
      await signInThroughPage(supportPage, supportOfThisConsole, { origin: consoleUrl });
      await supportPage.goto(`${consoleUrl}/customer/new`);
      const notice = supportPage.getByRole('status').filter({ hasText: 'not set up' });
      await expect(notice).toContainText('This environment is not set up yet: ask an admin of the console.');
      const customerForm = supportPage.getByRole('form', { name: 'Create a user group' });
      await customerForm.getByLabel('User group ID').fill('not-set-up');
      await customerForm.getByRole('button', { name: 'Create user group' }).click();
      await expect(customerForm.getByRole('alert')).toHaveText(
        /This environment is not set up yet: ask an admin of the console\./,
      );
      await expect(supportPage.getByText(/USER_GROUP_API/)).toHaveCount(0);
      await expectNoSeriousA11yViolations(supportPage, 'an environment not set up, as support');
    } finally {
      await supportContext.close();
    }
  } finally {
    for (const child of processes.reverse()) await stopProcess(child);
  }
});
