import { randomUUID } from 'node:crypto';
import type { Page } from '@playwright/test';
import { expectNoSeriousA11yViolations } from './support/axe';
import { expect, test } from './support/fixtures';
import { rememberSecrets } from './support/seen-secrets';
import { consoleUrl } from './support/servers';

/**
 * The page has run what its timers set off: React renders a timer's state change in a task it
 * posts as a message (its scheduler's MessageChannel), and a message posted after it is delivered
 * after it. An event to wait on, where a fixed wait would only hope the render was done.
 */
const renderedAfterTimers = (page: Page) =>
  page.evaluate(
    () =>
      new Promise<void>((resolve) => {
        const channel = new MessageChannel();
        channel.port1.onmessage = () => resolve();
        channel.port2.postMessage(null);
      }),
  );

/**
 * A confirmation by a typed id says, as the person types, whether it matches: under the field (read
 * with it), and read out once typing rests, only a match or a typo, never "… yet" after every key.
 */
for (const screen of [
  { name: 'phone', viewport: { width: 375, height: 667 } },
  { name: 'laptop', viewport: { width: 1280, height: 800 } },
])
  test.describe(`on a ${screen.name}`, () => {
    test.use({ viewport: screen.viewport });

    test('a typed id says whether it matches as it is typed, and reads out only a match or a typo', async ({
      page,
    }) => {
      const id = `typed-${randomUUID().slice(0, 8)}`;
      const created = await page.request.post('/api/user-groups/customer/get-or-create', {
        data: { user_group_id: id },
        headers: { origin: consoleUrl },
      });
      expect(created.status()).toBe(200);
      rememberSecrets(((await created.json()) as { user_group: { token: string } }).user_group.token);

      // The page's clock, so that the test moves it past the typing's rest instead of waiting for it.
      await page.clock.install();
      await page.goto(`/customer/groups/${id}`);
      const panel = page.getByRole('region', { name: 'Token' });
      await panel.getByRole('button', { name: 'Show token' }).click();
      await panel.getByRole('button', { name: 'Rotate token' }).click();
      const dialog = page.getByRole('dialog', {
        name: `Rotate the token of ${id} in Customer (production)?`,
      });
      const field = dialog.getByLabel(`Type ${id} to confirm`);
      const confirm = dialog.getByRole('button', { name: 'Rotate token' });
      const said = dialog.getByRole('status');
      await expect(said).toHaveText('');

      // On the way: said under the field, not read out, even once typing has rested: the page's
      // clock moves past the rest (700 ms, components/confirm-dialog.tsx), firing its timer, and the
      // render it sets off is done before the status is read.
      await field.pressSequentially(id.slice(0, 5));
      await expect(field).toHaveAccessibleDescription(`Does not match ${id} yet`);
      await page.clock.runFor(1000);
      await renderedAfterTimers(page);
      await expect(said).toHaveText('');
      await expect(confirm).toBeDisabled();

      // A typo: said, and read out once typing rests.
      await field.fill(`${id.slice(0, 5)}x`);
      await expect(field).toHaveAccessibleDescription(`Does not match ${id}: character 6 differs`);
      await expect(said).toHaveText(`Does not match ${id}: character 6 differs`);
      await expectNoSeriousA11yViolations(page, `a typed id with a typo on a ${screen.name}`);
      await page.screenshot({ path: `/tmp/wt-day-shots/typed-typo-${screen.name}.png` });

      await field.fill(id.toUpperCase());
      await expect(field).toHaveAccessibleDescription(
        `Does not match ${id}: capitals and small letters differ`,
      );

      await field.fill(id);
      await expect(field).toHaveAccessibleDescription(`Matches ${id}`);
      await expect(said).toHaveText(`Matches ${id}`);
      await expect(confirm).toBeEnabled();
      await expectNoSeriousA11yViolations(page, `a typed id that matches on a ${screen.name}`);
      await page.screenshot({ path: `/tmp/wt-day-shots/typed-match-${screen.name}.png` });
      await dialog.getByRole('button', { name: 'Cancel' }).click();
      await expect(dialog).toHaveCount(0);
    });
  });
