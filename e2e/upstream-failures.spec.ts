import type { ChildProcess } from 'node:child_process';
import { mkdtemp } from 'node:fs/promises';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { adminCredentials } from './support/auth-states';
import { startNode, stopProcess, waitForHttp } from './support/processes';
import { e2eDataDir } from './support/servers';
import { signInThroughPage } from './support/sign-in';

/**
 * A console pointed at a loopback service that answers each failure a person can meet (the
 * group id picks it): every one is shown as something to act on, and the input is kept.
 */
const upstreamPort = 4314;
const consolePort = 3314;
const upstreamUrl = `http://127.0.0.1:${upstreamPort}`;
const consoleUrl = `http://127.0.0.1:${consolePort}`;

test.use({ storageState: { cookies: [], origins: [] } });

test('each upstream failure is explained and the input kept', async ({ page }) => {
  test.setTimeout(120_000);
  const processes: ChildProcess[] = [];
  try {
    processes.push(startNode('e2e/support/faulty-upstream.ts', [String(upstreamPort)]));
    processes.push(
      startNode('lib/launcher/start.ts', [], {
        PORT: String(consolePort),
        DATA_DIR: path.join(await mkdtemp(path.join(e2eDataDir, 'faulty-')), 'console'),
        USER_GROUP_API_URL: upstreamUrl,
        USER_GROUP_API_KEY_TESTING: 'a-key-the-faulty-service-ignores',
        USER_GROUP_API_TIMEOUT_MS: '1500',
      }),
    );
    await waitForHttp(consoleUrl);
    await signInThroughPage(page, adminCredentials, { origin: consoleUrl, next: '/testing' });

    const cases: Array<[string, RegExp]> = [
      ['refused-key', /API key for Testing was refused: check USER_GROUP_API_KEY_TESTING/],
      ['rate-limited', /retry in 7 s/],
      ['server-error', /failed \(HTTP 503\)/],
      ['malformed', /unexpected shape|not a User Group Service|Is USER_GROUP_API_URL/i],
      ['slow', /did not answer within 1500 ms/],
    ];
    await page.goto(`${consoleUrl}/testing/new`);
    const form = page.getByRole('form', { name: 'Create a user group' });
    for (const [id, message] of cases) {
      await form.getByLabel('User group ID').fill(id);
      await form.getByLabel('Name').fill(`Name for ${id}`);
      await form.getByRole('button', { name: 'Create user group' }).click();
      await expect(form.getByRole('alert'), id).toContainText(message);
      await expect(form.getByLabel('User group ID')).toHaveValue(id);
      await expect(form.getByLabel('Name')).toHaveValue(`Name for ${id}`);
    }

    // Unreachable: the service is gone.
    await stopProcess(processes[0] as ChildProcess);
    await form.getByLabel('User group ID').fill('after-the-stop');
    await form.getByRole('button', { name: 'Create user group' }).click();
    await expect(form.getByRole('alert')).toContainText(`${upstreamUrl}/api/user could not be reached`);
    await expect(form.getByLabel('User group ID')).toHaveValue('after-the-stop');
  } finally {
    for (const child of processes.reverse()) await stopProcess(child);
  }
});
