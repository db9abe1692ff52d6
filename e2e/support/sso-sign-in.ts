import { type Browser, expect, type Page } from '@playwright/test';
import { mockOidc } from './oidc-settings';

/**
 * From the console's sign-in page, through the run's mock OpenID Connect provider
 * (e2e/support/mock-oidc.ts). Its page is waited for first: the console's own sign-in form has an
 * Email field too, and under load the email went there.
 */
export async function continueAtMockIdp(page: Page, email: string, emailVerified = true): Promise<void> {
  await page.getByRole('button', { name: `Sign in with ${mockOidc.displayName}` }).click();
  await expect(page.getByRole('heading', { name: 'Mock IdP sign-in' })).toBeVisible();
  await page.getByLabel('Email', { exact: true }).fill(email);
  await page.getByLabel('Email verified').setChecked(emailVerified);
  await page.getByRole('button', { name: 'Continue' }).click();
}

/** A fresh browser signed in through SSO as `email`. */
export async function signInWithSso(
  browser: Browser,
  email: string,
  { emailVerified = true }: { emailVerified?: boolean } = {},
): Promise<Page> {
  const context = await browser.newContext({ storageState: { cookies: [], origins: [] } });
  const page = await context.newPage();
  await page.goto('/sign-in');
  await continueAtMockIdp(page, email, emailVerified);
  return page;
}
