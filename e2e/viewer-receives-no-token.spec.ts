import { randomUUID } from 'node:crypto';
import { expect, test } from '@playwright/test';
import { apiAs, postConsole } from './support/api';
import { supportState, viewerState } from './support/auth-states';
import { seenSecrets } from './support/seen-secrets';

test.use({ storageState: viewerState });

/**
 * A viewer's browser never receives a token, in any form: page HTML, RSC payloads of client-side
 * navigation, the directory API, the audit log and its CSV export. Searched for every token
 * this run has produced so far, and for tokens made just before, some of them rotated.
 */
test('a viewer receives no token in anything the browser loads', async ({ page }) => {
  const received: Array<{ url: string; body: string }> = [];
  page.on('response', (response) => {
    void response
      .body()
      .then((body) => received.push({ url: response.url(), body: body.toString('utf8') }))
      .catch(() => undefined); // redirects have no body
  });
  const support = await apiAs(supportState);
  const fresh: string[] = [];
  try {
    for (let n = 0; n < 3; n++) {
      const id = `viewer-sweep-${randomUUID().slice(0, 8)}`;
      const created = await postConsole(support, '/api/user-groups/customer/get-or-create', {
        user_group_id: id,
        name: `Sweep ${n}`,
      });
      const token = (created.body.user_group as { token: string }).token;
      fresh.push(token);
      if (n === 0) {
        const rotated = await postConsole(support, '/api/user-groups/customer/rotate', {
          current_token: token,
        });
        fresh.push((rotated.body.user_group as { token: string }).token);
      }
    }
  } finally {
    await support.dispose();
  }

  await page.goto('/');
  for (const [navigation, name] of [
    ['Console', 'Audit log'],
    ['Environment', 'Testing'],
    ['Console', 'User groups'],
  ] as const) {
    await page.getByRole('navigation', { name: navigation }).getByRole('link', { name }).click();
    await page.waitForLoadState('networkidle');
  }
  // A group page, history and all.
  await page.getByTestId('directory-row').first().getByRole('link').first().click();
  await expect(page.getByRole('region', { name: 'History' })).toBeVisible();
  await page.goto('/audit?action=rotate');
  await page.goto('/customer?q=viewer-sweep');
  // What the pages' own scripts may fetch, fetched by the browser itself.
  const fetched = await page.evaluate(async () =>
    Promise.all(
      ['/api/user-groups/customer', '/api/audit', '/api/audit/export'].map(async (url) => {
        const response = await fetch(url);
        return { url, status: response.status, body: await response.text() };
      }),
    ),
  );
  expect(fetched.map((response) => response.status)).toEqual([200, 200, 200]);
  received.push(...fetched);

  const tokens = [...new Set([...fresh, ...seenSecrets().filter((secret) => /^[0-9a-f]{64}$/.test(secret))])];
  expect(tokens.length).toBeGreaterThanOrEqual(fresh.length);
  expect(received.some((response) => response.url.includes('_rsc='))).toBe(true);
  const leaks = received.flatMap((response) =>
    tokens.filter((token) => response.body.includes(token)).map(() => response.url),
  );
  expect(leaks).toEqual([]);
});
