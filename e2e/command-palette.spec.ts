import { randomUUID } from 'node:crypto';
import { seedTestingGroup } from './support/api';
import { expect, test } from './support/fixtures';

test('Ctrl-K jumps to a group by part of its name, switches environment and opens the audit log', async ({
  page,
}) => {
  const id = `palette-${randomUUID().slice(0, 8)}`;
  const tag = randomUUID().slice(0, 6);
  await seedTestingGroup(id, `Palette ${tag}`);
  await page.goto('/testing');
  await page.keyboard.press('Control+k');
  const palette = page.getByRole('dialog', { name: 'Command palette' });
  await page.keyboard.type(`Palette ${tag}`);
  await expect(palette.getByRole('option', { name: new RegExp(id) })).toBeVisible();
  await palette.getByRole('option', { name: new RegExp(id) }).click();
  await expect(page).toHaveURL(new RegExp(`/testing/groups/${id}$`));
  await expect(page.getByRole('heading', { level: 1, name: id })).toBeVisible();

  await page.keyboard.press('Control+k');
  await page.keyboard.type('Customer');
  await palette.getByRole('option', { name: /Switch to Customer/ }).click();
  await expect(page).toHaveURL(/\/customer$/);

  await page.keyboard.press('Control+k');
  await page.keyboard.type('audit');
  await page
    .getByRole('dialog', { name: 'Command palette' })
    .getByRole('option', { name: /audit log/i })
    .click();
  await expect(page).toHaveURL(/\/audit\?environment=Customer$/);
});

test('Ctrl-K and an id typed before the page’s scripts ran open the palette with that search, nothing lost', async ({
  page,
}) => {
  const id = `early-${randomUUID().slice(0, 8)}`;
  await seedTestingGroup(id);
  // The page's scripts (not its styles) are held back: it shows, and the person types, before React
  // has hydrated it.
  let release = () => {};
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route('**/_next/static/chunks/*.js', async (route) => {
    await released;
    await route.continue();
  });
  await page.goto('/testing', { waitUntil: 'commit' });
  await expect(page.getByRole('button', { name: /Search or jump to/ })).toBeVisible();
  await page.keyboard.press('Control+k');
  await page.keyboard.type(`${id}x`);
  await page.keyboard.press('Backspace');
  const palette = page.getByRole('dialog', { name: 'Command palette' });
  await expect(palette).toBeHidden();

  release();
  await expect(palette).toBeVisible();
  await expect(palette.getByRole('combobox')).toHaveValue(id);
  // Taken by the palette, what was typed is no longer kept on the page: the inline listener's global is gone.
  expect(await page.evaluate(() => window.__consolePaletteKeys)).toBeUndefined();
  await expect(palette.getByRole('option', { name: new RegExp(id) })).toBeVisible();
  // The page's own search heard none of it.
  await expect(page.locator('input[type="search"]')).toHaveValue('');
});
