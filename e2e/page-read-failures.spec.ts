/**
 * A page's read that the database stops at the console's time limit (5 s): the page keeps its
 * heading and search and says what to do where its results would be, in an alert, rather than
 * Next's error page (lib/server/page-read.ts). PostgreSQL only: a test's transaction holds the table
 * locked, so the console's read waits until the database cancels it (statement_timeout); SQLite's
 * readers never wait for a lock.
 */
import { randomUUID } from 'node:crypto';
import type { Page } from '@playwright/test';
import { seedTestingGroup } from './support/api';
import { expectNoSeriousA11yViolations } from './support/axe';
import { expect, test } from './support/fixtures';
import { e2eOnPostgres, whileLocked } from './support/postgres-database';

test.skip(!e2eOnPostgres, "a read the database stops needs PostgreSQL's locks: runs in the PostgreSQL pass");

/** The read waits 5 s for the lock, then the page renders: more than expect's default 10 s leaves room. */
const STOPPED_READ_MS = 30_000;

/** The page's own alert saying `words` (Next's route announcer is an alert too, empty). */
const stoppedRead = (page: Page, words: RegExp) => page.getByRole('alert').filter({ hasText: words });

async function goesToStoppedRead(page: Page, path: string, words: RegExp): Promise<void> {
  await page.goto(path, { timeout: STOPPED_READ_MS });
  await expect(stoppedRead(page, words)).toBeVisible({ timeout: STOPPED_READ_MS });
  await expectNoSeriousA11yViolations(page, `${path}, its read stopped`);
}

test('the audit page says a read stopped at its limit, where its results would be', async ({ page }) => {
  const narrowIt = /took too long \(over 5 s\) and was stopped: narrow it/;
  await whileLocked('audit_event', () => goesToStoppedRead(page, '/audit?action=rotate', narrowIt));
  await expect(page.getByRole('heading', { level: 1, name: 'Audit log' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Apply filters' })).toBeVisible();
  // Once the table is free the same page reads as before.
  await page.reload();
  await expect(page.getByRole('region', { name: 'Results' })).toBeVisible();
  await expect(stoppedRead(page, narrowIt)).toHaveCount(0);
});

test("an environment's directory says its list or a search stopped at the limit, each in its own words", async ({
  page,
}) => {
  await whileLocked('directory_entry', async () => {
    await goesToStoppedRead(page, '/testing', /The list of groups took too long to read and was stopped/);
    await expect(page.getByRole('heading', { level: 1, name: 'User groups' })).toBeVisible();
    await expect(page.getByRole('searchbox', { name: 'Find a user group' })).toBeVisible();
    await goesToStoppedRead(
      page,
      '/testing?q=acme',
      /This search took too long .*try a longer part of the id/,
    );
  });
  await expect(page.getByRole('searchbox', { name: 'Find a user group' })).toHaveValue('acme');
});

test("a group's page says its history's read stopped, its details and token still there", async ({
  page,
}) => {
  const id = `read-stopped-${randomUUID().slice(0, 8)}`;
  await seedTestingGroup(id);
  await whileLocked('audit_event', () =>
    goesToStoppedRead(page, `/testing/groups/${id}`, /This group’s history took too long to read/),
  );
  await expect(page.getByRole('heading', { level: 1, name: id })).toBeVisible();
  await expect(page.getByRole('heading', { level: 2, name: 'Details' })).toBeVisible();
  await expect(page.getByRole('heading', { level: 2, name: 'Token' })).toBeVisible();
  await expect(page.getByRole('button', { name: /Reveal|Show token/ }).first()).toBeVisible();
});
