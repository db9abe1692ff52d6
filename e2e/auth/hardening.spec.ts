import { test as apiTest, expect as baseExpect } from '@playwright/test';
import { expect, test } from '../support/fixtures';

test('pages carry a nonce CSP that lets Next hydrate, and no violation happens', async ({ page }) => {
  const violations: string[] = [];
  page.on('console', (message) => {
    if (/Content.Security.Policy|Refused to/i.test(message.text())) violations.push(message.text());
  });
  const response = await page.goto('/customer/new');
  const headers = response?.headers() ?? {};
  const policy = headers['content-security-policy'] ?? '';
  const nonce = /'nonce-([^']+)'/.exec(policy)?.[1];
  expect(nonce).toBeTruthy();
  expect(policy).toContain("frame-ancestors 'none'");
  expect(policy).not.toMatch(/script-src[^;]*'unsafe-inline'/);
  expect(headers['x-content-type-options']).toBe('nosniff');
  expect(headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
  expect(headers['x-frame-options']).toBe('DENY');
  expect(headers['cache-control']).toContain('no-store');

  // Every script Next wrote into the page carries this request's nonce.
  const scripts = await page
    .locator('script')
    .evaluateAll((elements) => elements.map((element) => (element as HTMLScriptElement).nonce));
  expect(scripts.length).toBeGreaterThan(0);
  expect(scripts.every((value) => value === nonce)).toBe(true);
  // Hydrated: a client component reacts.
  await page
    .getByRole('form', { name: 'Create a user group' })
    .getByRole('button', { name: 'Create user group' })
    .click();
  await expect(
    page
      .getByRole('form', { name: 'Create a user group' })
      .getByText(/must not be empty|Enter/i)
      .first(),
  ).toBeVisible();
  // A dialog too: its scroll lock adds a style element, which carries the nonce.
  await page.keyboard.press('Control+k');
  const palette = page.getByRole('dialog', { name: 'Command palette' });
  await expect(palette).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(palette).toHaveCount(0);
  expect(violations).toEqual([]);

  const again = await page.request.get('/customer/new');
  baseExpect(/'nonce-([^']+)'/.exec(again.headers()['content-security-policy'] ?? '')?.[1]).not.toBe(nonce);
});

apiTest('API answers are never cached and cannot be framed or run', async ({ request }) => {
  for (const path of ['/api/user-groups/customer', '/api/auth/sign-in/email', '/api/audit']) {
    const response = await request.get(path);
    baseExpect(response.headers()['cache-control'], path).toContain('no-store');
    baseExpect(response.headers()['content-security-policy'], path).toContain("default-src 'none'");
    baseExpect(response.headers()['x-content-type-options'], path).toBe('nosniff');
  }
});

apiTest(
  'robots.txt answers, to anyone, that nothing here is for crawlers (not a redirect to sign in)',
  async ({ request }) => {
    const response = await request.get('/robots.txt', { maxRedirects: 0 });
    baseExpect(response.status()).toBe(200);
    baseExpect(await response.text()).toMatch(/^User-agent: \*\nDisallow: \/$/m);
  },
);
