import type { ChildProcess } from 'node:child_process';
import { mkdtemp } from 'node:fs/promises';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { type Receiver, startReceiver } from '../lib/audit-stream/test-receiver';
import { realClock } from '../lib/clock';
import { adminCredentials } from './support/auth-states';
import { outputOf, startNode, stopProcess, waitForHttp } from './support/processes';
import { e2eDataDir, consolePort as runConsolePort } from './support/servers';
import { signInThroughPage } from './support/sign-in';

/**
 * A console started as `npm start` starts one, with AUDIT_STREAM_URL pointing at a receiver this
 * test owns: the sign-in reaches the receiver as it is written and as it is settled, and the admin's
 * audit page says how the stream is doing, up to date and then with the endpoint down.
 */
const consolePort = runConsolePort + 20;
const consoleUrl = `http://127.0.0.1:${consolePort}`;
const STREAM_TOKEN = 'e2e-stream-token-5f1c9a';

test.use({ storageState: { cookies: [], origins: [] } });

test('streams the audit log to the endpoint set, and tells the admin how it goes', async ({ page }) => {
  test.setTimeout(240_000);
  const dataDir = await mkdtemp(path.join(e2eDataDir, 'audit-stream-'));
  let receiver: Receiver | undefined;
  let consoleProcess: ChildProcess | undefined;
  try {
    receiver = await startReceiver(undefined, realClock);
    consoleProcess = startNode('lib/launcher/start.ts', [], {
      PORT: String(consolePort),
      DATA_DIR: path.join(dataDir, 'console'),
      AUDIT_STREAM_URL: receiver.url.toString(),
      AUDIT_STREAM_TOKEN: STREAM_TOKEN,
    });
    const output = outputOf(consoleProcess);
    await waitForHttp(consoleUrl, 150_000);

    // A fresh console's first pages are slow on a loaded machine: open them once before signing in.
    for (const warm of ['/sign-in', '/customer', '/audit']) await page.goto(`${consoleUrl}${warm}`);
    await signInThroughPage(page, adminCredentials, { origin: consoleUrl });
    const stream = receiver;
    await expect
      .poll(
        () =>
          stream
            .accepted()
            .filter((object) => object.action === 'sign-in')
            .map((object) => object.revision),
        {
          timeout: 30_000,
        },
      )
      .toEqual([0, 1]);
    const [written, settled] = stream.accepted().filter((object) => object.action === 'sign-in');
    expect(written).toMatchObject({
      kind: 'audit.entry',
      outcome: 'started',
      operator_email: adminCredentials.email,
    });
    expect(settled).toMatchObject({
      id: written?.id,
      outcome: 'success',
      idempotency_key: `${written?.id}:1`,
    });
    expect(stream.batches[0]?.headers.authorization).toBe(`Bearer ${STREAM_TOKEN}`);

    await page.goto(`${consoleUrl}/audit`);
    const line = page.getByTestId('audit-stream-status');
    await expect(line).toHaveText(/^streaming: (up to date|\d+ s behind)$/);
    // The endpoint goes away: the next entries (each page read under other filters is one) wait,
    // and the page says why.
    await stream.down();
    let reads = 0;
    await expect
      .poll(
        async () => {
          reads += 1;
          await page.goto(
            `${consoleUrl}/audit?operator=${encodeURIComponent(`reader-${reads}@example.com`)}`,
          );
          return line.textContent();
        },
        { timeout: 60_000, intervals: [1_000] },
      )
      .toMatch(/^streaming: \d+ s behind, endpoint unreachable$/);
    expect(output()).not.toContain(STREAM_TOKEN);
  } finally {
    if (consoleProcess) await stopProcess(consoleProcess);
    await receiver?.close().catch(() => undefined);
  }
});
