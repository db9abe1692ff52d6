import { randomUUID } from 'node:crypto';
import { expectNoSeriousA11yViolations } from './support/axe';
import { expect, test } from './support/fixtures';
import { expectNoSidewaysScroll } from './support/layout-checks';

/**
 * An address that names nothing gets the console's own 404: its header (the console's, signed in,
 * or its mark outside the console's pages), one <main>, the way back to the user groups, and no script or style the page's CSP refuses (every test fails on a
 * CSP line in the browser's console: browserErrors in support/fixtures.ts). Next's own 404 was
 * prerendered (its scripts had no nonce, so none ran) and brought an inline style element.
 */
const addresses = [
  ['an unknown address', '/nope'],
  ['an address deeper than any page', '/nope/deeper/than/any/page'],
  ['a bulk job that is not there', `/customer/bulk/${randomUUID()}`],
  ['an unknown page of an environment', '/testing/jobs'],
] as const;

for (const screen of [
  { name: 'phone', viewport: { width: 375, height: 667 } },
  { name: 'laptop', viewport: { width: 1280, height: 800 } },
])
  test.describe(`on a ${screen.name}`, () => {
    test.use({ viewport: screen.viewport });

    test('an address that names nothing: the console’s 404, one main, the way back, no CSP violation', async ({
      page,
    }) => {
      for (const [what, path] of addresses) {
        const response = await page.goto(path);
        expect(response?.status(), `${what}: ${path}`).toBe(404);
        await expect(page.getByRole('main')).toHaveCount(1);
        await expect(page.getByRole('heading', { level: 1, name: 'There is no such page' })).toBeVisible();
        await expect(page.getByRole('banner')).toContainText('User Group Console');
        // Its scripts ran (a nonce on each): the page is hydrated, and the link is a client-side one.
        await expect(page.getByRole('link', { name: 'Back to the user groups' })).toBeVisible();
        await expectNoSidewaysScroll(page, `the 404 of ${what}`);
        await expectNoSeriousA11yViolations(page, `the 404 of ${what} on a ${screen.name}`);
      }
      await page.screenshot({ path: `/tmp/wt-day-shots/not-found-${screen.name}.png`, fullPage: true });
      await page.getByRole('link', { name: 'Back to the user groups' }).click();
      await expect(page).toHaveURL(/\/customer$/);
      await expect(page.getByRole('searchbox', { name: 'Find a user group' })).toBeVisible();
    });
  });

test.describe('signed out', () => {
  test.use({ storageState: { cookies: [], origins: [] } });

  test('an address outside the console’s pages is the same 404, with no CSP violation; one inside asks to sign in', async ({
    page,
  }) => {
    const response = await page.goto('/nope/deeper/than/any/page');
    expect(response?.status()).toBe(404);
    await expect(page.getByRole('heading', { level: 1, name: 'There is no such page' })).toBeVisible();
    await expect(page.getByRole('main')).toHaveCount(1);
    await expectNoSeriousA11yViolations(page, 'the 404 signed out');
    // An address the console's pages might hold: signing in comes first (nothing said about it).
    await page.goto('/nope');
    await expect(
      page.getByRole('heading', { level: 1, name: 'Sign in to the User Group Console' }),
    ).toBeVisible();
  });
});
