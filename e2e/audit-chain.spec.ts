import { adminState } from './support/auth-states';
import { expectNoSeriousA11yViolations } from './support/axe';
import { expect, test } from './support/fixtures';

test.describe('as an admin', () => {
  test.use({ storageState: adminState });

  test('verifies the audit chain from the audit page, by keyboard, and reads the outcome', async ({
    page,
  }) => {
    await page.goto('/audit');
    const verify = page.getByRole('button', { name: 'Verify the audit log' });
    await verify.focus();
    await expect(verify).toBeFocused();
    // The console seals every 10 seconds what is 5 seconds old: the setup's sign-ins are soon sealed.
    await expect(async () => {
      await verify.press('Enter');
      await expect(page.getByRole('status').filter({ hasText: 'The audit chain verifies' })).toBeVisible({
        timeout: 2_000,
      });
    }).toPass({ timeout: 40_000 });
    await expect(page.getByRole('status').filter({ hasText: 'The audit chain verifies' })).toContainText(
      /\d+ entries \(ids \d+ to \d+\) in \d+ seals, signed by key [0-9a-f]{16}/,
    );
    await expectNoSeriousA11yViolations(page, 'the audit page with a verification');
  });
});

test('a support operator sees no Verify button', async ({ page }) => {
  await page.goto('/audit');
  await expect(page.getByRole('heading', { name: 'Audit log' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Verify the audit log' })).toHaveCount(0);
});
