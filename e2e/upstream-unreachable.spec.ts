import type { ChildProcess } from 'node:child_process';
import { mkdtemp } from 'node:fs/promises';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { adminCredentials } from './support/auth-states';
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

test('names the upstream when it stops answering mid-session, and keeps the input', async ({ page }) => {
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
    // The one key is Testing's: Customer says it is not configured.
    await page.goto(`${consoleUrl}/customer`);
    await expect(page.getByRole('status').filter({ hasText: 'not configured' })).toContainText(
      'USER_GROUP_API_KEY_CUSTOMER',
    );
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
  } finally {
    for (const child of processes.reverse()) await stopProcess(child);
  }
});
