import { randomBytes, randomUUID } from 'node:crypto';
import type { Page } from '@playwright/test';
import { apiAs, postConsole } from './support/api';
import { supportState, viewerState } from './support/auth-states';
import { expect, test } from './support/fixtures';

/**
 * A token is never in a URL: not in the address bar, the history or any request line the console's
 * server logs. Security round 3 found one way in (the audit page's group filter, a GET form); this
 * sweep types a token into every text field of every page a support person opens, presses Enter in
 * it, and checks every request the browser made and every address it showed.
 */
const token = randomBytes(32).toString('hex');

/** Text fields a person types into (not passwords, choices or files). */
const textFields =
  'input:not([type]):visible, input[type="text"]:visible, input[type="search"]:visible, input[type="email"]:visible, input[type="url"]:visible, textarea:visible';

async function sweep(page: Page, path: string): Promise<number> {
  const seen: string[] = [];
  page.on('request', (request) => seen.push(request.url()));
  page.on('framenavigated', (frame) => seen.push(frame.url()));
  await page.goto(path);
  const count = await page.locator(textFields).count();
  for (let index = 0; index < count; index++) {
    await page.goto(path);
    const field = page.locator(textFields).nth(index);
    await field.fill(token);
    await field.press('Enter');
    // Whatever Enter leads to (a search, a form sent, a page opened) has happened by then.
    await page.waitForLoadState('networkidle');
    seen.push(page.url());
    const history = await page.evaluate(() => [window.location.href, document.referrer]);
    seen.push(...history);
  }
  expect(
    seen.filter((url) => url.includes(token)),
    `a URL of ${path} holds the token`,
  ).toEqual([]);
  return count;
}

test('a token typed into any text field of any page never reaches a URL', async ({ page }) => {
  test.setTimeout(240_000);
  // A draft rotation job: its page has a field too (the count typed to confirm).
  const support = await apiAs(supportState);
  const group = `url-sweep-${randomUUID().slice(0, 8)}`;
  let jobId = '';
  try {
    const { body } = await postConsole(support, '/api/user-groups/testing/get-or-create', {
      user_group_id: group,
    });
    const draft = await postConsole(support, '/api/user-groups/customer/jobs/rotate', {
      source: 'pasted',
      tokens: (body.user_group as { token: string }).token,
    });
    jobId = String(draft.body.id);
  } finally {
    await support.dispose();
  }
  let fields = 0;
  for (const path of [
    '/customer',
    '/testing',
    '/customer/new',
    '/customer/paste-token',
    '/customer/bulk',
    `/customer/bulk/${jobId}`,
    `/testing/groups/${group}`,
    '/audit',
    '/account',
  ])
    fields += await sweep(page, path);
  // Every page above has at least one field: a sweep that found none would prove nothing.
  expect(fields).toBeGreaterThanOrEqual(9);

  // The command palette, from any page.
  await page.goto('/testing');
  await page.keyboard.press('Control+k');
  const palette = page.getByRole('dialog', { name: 'Command palette' });
  await palette.getByRole('combobox').fill(token);
  await palette.getByRole('combobox').press('Enter');
  await page.waitForLoadState('networkidle');
  expect(page.url()).not.toContain(token);
});

test.describe('as a viewer', () => {
  test.use({ storageState: viewerState });

  test('a token typed into the audit filters is refused in place, never sent', async ({ page }) => {
    const seen: string[] = [];
    page.on('request', (request) => seen.push(request.url()));
    await page.goto('/audit');
    await page.getByLabel('User group ID (contains)').fill(token);
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await expect(page.getByText('your role cannot identify tokens')).toBeVisible();
    expect(page.url()).not.toContain(token);
    expect(seen.filter((url) => url.includes(token))).toEqual([]);
  });

  test('a token pasted into the directory search is refused in place, never a page their role may not open', async ({
    page,
  }) => {
    await page.goto('/testing');
    const search = page.getByRole('searchbox');
    await search.fill(token);
    await expect(page.getByText('your role cannot identify tokens')).toBeVisible();
    await search.press('Enter');
    await page.waitForLoadState('networkidle');
    await expect(page).toHaveURL(/\/testing$/);
    await expect(page.getByRole('main')).toHaveCount(1);
    await expect(search).toBeFocused();
  });

  test('the directory’s search asks a viewer only for what their role can do: no token to paste', async ({
    page,
  }) => {
    await page.goto('/testing');
    const search = page.getByRole('searchbox', { name: 'Find a user group' });
    await expect(search).toHaveAttribute('placeholder', 'Part of an ID or a name');
    await expect(page.getByRole('main')).not.toContainText(/paste a token/i);
    // The band offers no Paste a token either.
    await expect(page.getByRole('link', { name: 'Paste a token' })).toHaveCount(0);
  });
});

test('the directory’s search invites support to paste a token', async ({ page }) => {
  await page.goto('/testing');
  await expect(page.getByRole('searchbox', { name: 'Find a user group' })).toHaveAttribute(
    'placeholder',
    'Part of an ID or a name, or paste a token',
  );
});
