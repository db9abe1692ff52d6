import { readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { listeningPid } from '../../lib/testing/process-tree';
import { viewerCredentials } from '../support/auth-states';
import { consolePort, consoleUrl } from '../support/servers';

/** Attacks a security review tried on the live console (issue 9), each refused. */
test.use({ storageState: { cookies: [], origins: [] } });

test('signing in with next=/.//evil.example/ stays on the console', async ({ page }) => {
  await page.goto(`/sign-in?next=${encodeURIComponent('/.//evil.example/')}`);
  const form = page.getByRole('form', { name: 'Sign in' });
  await form.getByLabel('Email').fill(viewerCredentials.email);
  await form.getByLabel('Password').fill(viewerCredentials.password);
  await form.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByTestId('operator-email')).toHaveText(viewerCredentials.email);
  expect(new URL(page.url()).origin).toBe(new URL(consoleUrl).origin);
  // `/` opens the Customer environment's groups.
  expect(new URL(page.url()).pathname).toBe('/customer');
});

test('a form-encoded sign-in is refused before any password is checked', async ({ request }) => {
  for (let n = 0; n < 8; n++) {
    const response = await request.post('/api/auth/sign-in/email', {
      form: { email: viewerCredentials.email, password: `guess-${n}` },
      headers: { origin: consoleUrl, 'x-forwarded-for': `203.0.113.${n}` },
    });
    expect(response.status()).toBe(415);
  }
});

/** Resident memory of the process serving the console (the launcher, embedded service and all), in bytes. */
function consoleRss(): number {
  const pid = listeningPid(consolePort);
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1]) * 1024;
}

test('20 MB bodies are refused with 413 without the console holding them', async ({ request }) => {
  const post = (path: string, data: string | Buffer) =>
    request.post(path, { data, headers: { origin: consoleUrl, 'content-type': 'application/json' } });
  // Warm: the first request to a route loads its code, which is not what is measured.
  await post('/api/auth/sign-in/email', '{}');
  await post('/api/user-groups/customer/get-or-create', '{}');
  const body = Buffer.alloc(20 * 1024 * 1024, 0x20);
  const before = consoleRss();
  // 200 MB in all: buffered, they would add that much. Resident memory also counts garbage not yet
  // collected, hence the margin. Signed out, the sign-in reads (and stops reading) the body; a
  // console route refuses before reading it at all.
  for (let round = 0; round < 5; round++) {
    expect((await post('/api/auth/sign-in/email', body)).status()).toBe(413);
    expect((await post('/api/user-groups/customer/get-or-create', body)).status()).toBe(401);
  }
  const grown = consoleRss() - before;
  test.info().annotations.push({ type: 'rss growth', description: `${(grown / 2 ** 20).toFixed(1)} MiB` });
  expect(grown).toBeLessThan(48 * 1024 * 1024);
  expect((await request.get('/api/health')).ok()).toBe(true);
});
