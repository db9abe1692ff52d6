import { expect, type Page } from '@playwright/test';
import type { Credentials } from './auth-states';

/**
 * Signs in through the sign-in page, as a person would, and waits for the console. `origin`
 * defaults to the run's console; a spec that starts a console of its own passes that one's.
 */
export async function signInThroughPage(
  page: Page,
  credentials: Pick<Credentials, 'email' | 'password'>,
  { next = '/', origin = '' }: { next?: string; origin?: string } = {},
): Promise<void> {
  await page.goto(`${origin}/sign-in?next=${encodeURIComponent(next)}`);
  const form = page.getByRole('form', { name: 'Sign in' });
  await form.getByLabel('Email').fill(credentials.email);
  await form.getByLabel('Password').fill(credentials.password);
  await form.getByRole('button', { name: 'Sign in' }).click();
  // `/` opens an environment's groups.
  await expect(page).toHaveURL(
    (url) =>
      `${url.pathname}${url.search}` === next ||
      (next === '/' && /^\/(customer|testing)$/.test(url.pathname)),
  );
  await expect(page.getByTestId('operator-email')).toHaveText(credentials.email);
}
