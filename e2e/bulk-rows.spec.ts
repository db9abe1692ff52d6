import { randomUUID } from 'node:crypto';
import { mkdir } from 'node:fs/promises';
import type { Page } from '@playwright/test';
import { apiAs, postConsole } from './support/api';
import { supportState, viewerState } from './support/auth-states';
import { expectNoSeriousA11yViolations } from './support/axe';
import { expect, test } from './support/fixtures';
import { expectNoSidewaysScroll } from './support/layout-checks';

/**
 * A job's page says which groups it names and what happened to each: an onboarding's preview lists
 * its good rows with its bad, a finished one says which groups were created and which found, a
 * finished rotation keeps its list of groups, each linking to the group's page. A draft cancelled
 * before it started says it will not start; a viewer opens no rotation made from tokens.
 */
const shots = '/tmp/wt-jobs-shots';

async function lookAt(page: Page, name: string): Promise<void> {
  await mkdir(shots, { recursive: true });
  for (const [width, height] of [
    [1280, 900],
    [375, 812],
  ] as const) {
    await page.setViewportSize({ width, height });
    await expectNoSidewaysScroll(page, `${name} at ${width} px`);
    await page.screenshot({ path: `${shots}/${name}-${width}.png`, fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}

async function groupsWithTokens(prefix: string, count: number): Promise<string[]> {
  const support = await apiAs(supportState);
  try {
    const tokens: string[] = [];
    for (let n = 1; n <= count; n++) {
      const created = await postConsole(support, '/api/user-groups/testing/get-or-create', {
        user_group_id: `${prefix}-${n}`,
        name: `Rows Co ${n}`,
      });
      expect(created.status).toBe(200);
      tokens.push((created.body.user_group as { token: string }).token);
    }
    return tokens;
  } finally {
    await support.dispose();
  }
}

test('a finished onboarding lists which groups it created and which it found, each linking to its page', async ({
  page,
}) => {
  test.setTimeout(120_000);
  const prefix = `rows-${randomUUID().slice(0, 8)}`;
  await groupsWithTokens(`${prefix}-old`, 1);
  const csv = [
    'user_group_id,name',
    `${prefix}-old-1,Rows Co 1`,
    `${prefix}-new-1,New Co 1`,
    `${prefix}-new-2,New Co 2`,
    `${prefix}-new-1,Twice`,
  ].join('\n');
  await page.goto('/testing/bulk');
  await page
    .getByLabel('CSV file')
    .setInputFiles({ name: 'rows.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
  await page.getByRole('button', { name: 'Check the file' }).click();
  await expect(page.getByRole('heading', { name: 'Get or create — rows.csv' })).toBeVisible();

  // The preview lists the good rows as well as the bad one, in the file's order.
  const list = page.getByTestId('job-rows');
  const rows = list.getByRole('table').getByRole('row');
  await expect(rows).toHaveCount(5);
  await expect(rows.nth(1)).toContainText(`${prefix}-old-1`);
  await expect(rows.nth(1)).toContainText('Ready to run');
  await expect(rows.nth(4)).toContainText('Refused');
  await expect(rows.nth(4)).toContainText('line 3');
  await expect(list.getByTestId('job-rows-pager')).toHaveText('Rows 1–4 of 4');
  await expectNoSeriousA11yViolations(page, 'an onboarding preview listing every row');
  await lookAt(page, 'onboarding-preview');

  await page.getByRole('button', { name: 'Run 3 rows' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Run the job' }).click();
  await expect(page.getByTestId('job-status')).toHaveText('Finished', { timeout: 60_000 });
  await expect(rows.nth(1)).toContainText('Found, unchanged');
  await expect(rows.nth(2)).toContainText('Created');
  await expect(rows.nth(3)).toContainText('Created');
  for (const id of [`${prefix}-old-1`, `${prefix}-new-1`, `${prefix}-new-2`])
    await expect(list.getByRole('link', { name: id, exact: true })).toHaveAttribute(
      'href',
      `/testing/groups/${id}`,
    );
  // A refused row's id links nowhere: it may not be a group at all.
  await expect(rows.nth(4).getByRole('link')).toHaveCount(0);
  await expectNoSeriousA11yViolations(page, 'a finished onboarding listing its groups');
  await lookAt(page, 'onboarding-finished');

  // One outcome at a time.
  await list.getByLabel('Show').selectOption('created');
  await expect(rows).toHaveCount(3);
  await expect(list.getByTestId('job-rows-pager')).toHaveText('Rows 1–2 of 2');
  await list.getByRole('link', { name: `${prefix}-new-2`, exact: true }).click();
  await expect(page.getByRole('heading', { level: 1 })).toContainText(`${prefix}-new-2`);
});

test('a finished rotation keeps its list of groups, each rotated and linking to its page', async ({
  page,
}) => {
  test.setTimeout(120_000);
  const prefix = `rows-rot-${randomUUID().slice(0, 8)}`;
  const tokens = await groupsWithTokens(prefix, 2);
  await page.goto('/testing/bulk');
  await page.getByLabel('Tokens to rotate').fill(tokens.join('\n'));
  await page.getByRole('button', { name: 'Check the tokens' }).click();
  await expect(page.getByRole('heading', { name: 'Rotate tokens — pasted tokens' })).toBeVisible();
  await page.getByRole('button', { name: 'Run 2 rows' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Rotate tokens' }).click();
  await expect(page.getByTestId('job-status')).toHaveText('Finished', { timeout: 60_000 });

  const list = page.getByRole('region', { name: 'Groups of this rotation', exact: true });
  const rows = list.getByRole('table').getByRole('row');
  await expect(rows).toHaveCount(3);
  for (const [index, id] of [`${prefix}-1`, `${prefix}-2`].entries()) {
    await expect(rows.nth(index + 1)).toContainText('Rotated');
    await expect(rows.nth(index + 1).getByRole('link', { name: id, exact: true })).toHaveAttribute(
      'href',
      `/testing/groups/${id}`,
    );
  }
  const content = await page.content();
  for (const token of tokens) expect(content).not.toContain(token);
  await expectNoSeriousA11yViolations(page, 'a finished rotation listing its groups');
  await lookAt(page, 'rotation-finished');
});

test('a long preview pages by Next and Previous, the focus on the rows it shows', async ({ page }) => {
  const prefix = `rows-long-${randomUUID().slice(0, 8)}`;
  const csv = ['user_group_id', ...Array.from({ length: 150 }, (_, n) => `${prefix}-${n}`)].join('\n');
  await page.goto('/testing/bulk');
  await page
    .getByLabel('CSV file')
    .setInputFiles({ name: 'long.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
  await page.getByRole('button', { name: 'Check the file' }).click();
  const list = page.getByTestId('job-rows');
  await expect(list.getByTestId('job-rows-pager')).toHaveText('Rows 1–100 of 150');
  await list.getByRole('button', { name: 'Next' }).press('Enter');
  await expect(list.getByTestId('job-rows-pager')).toHaveText('Rows 101–150 of 150');
  await expect(list.getByRole('table').getByRole('row').nth(1)).toContainText(`${prefix}-100`);
  await expect(list.getByRole('heading', { name: 'Groups of this job' })).toBeFocused();
  await expect(list.getByRole('button', { name: 'Next' })).toBeDisabled();
  await list.getByRole('button', { name: 'Previous' }).click();
  await expect(list.getByTestId('job-rows-pager')).toHaveText('Rows 1–100 of 150');
  await expectNoSeriousA11yViolations(page, 'a long preview, paged');
});

test('a draft cancelled before it started says it will not start, and its audit line names the job', async ({
  page,
}) => {
  await page.goto('/testing/bulk');
  await page.getByLabel('CSV file').setInputFiles({
    name: 'never-run.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from(`user_group_id\nnever-${randomUUID().slice(0, 8)}`),
  });
  await page.getByRole('button', { name: 'Check the file' }).click();
  await expect(page.getByRole('heading', { name: 'Get or create — never-run.csv' })).toBeVisible();
  const jobId = page.url().split('/').at(-1) as string;
  await page.getByRole('button', { name: 'Cancel job' }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog).toContainText('The job will not start: none of its 1 row is sent.');
  await expect(dialog).not.toContainText('what was done stays done');
  await expect(dialog.getByRole('button', { name: 'Keep the draft' })).toBeVisible();
  await expectNoSeriousA11yViolations(page, 'cancelling a draft');
  await dialog.getByRole('button', { name: 'Cancel the job' }).click();
  await expect(page.getByTestId('job-status')).toHaveText('Cancelled');
  await expect(page.getByTestId('job-cancelled-unstarted')).toHaveText(
    'Cancelled before it started: nothing was sent.',
  );
  const support = await apiAs(supportState);
  try {
    const answer = await support.get(`/api/audit?${new URLSearchParams({ reads: 'include' })}`);
    const { events } = (await answer.json()) as { events: { request_id: string; detail: string | null }[] };
    expect(events.find((event) => event.request_id === jobId)?.detail).toMatch(
      new RegExp(
        `^Cancelled job “never-run\\.csv” \\(${jobId.slice(0, 8)}\\) before it started: nothing was sent; request `,
      ),
    );
  } finally {
    await support.dispose();
  }
});

test('a viewer opens no part of a rotation made from tokens: page, progress, rows, result, preview', async ({
  page,
  browser,
}) => {
  const prefix = `rows-view-${randomUUID().slice(0, 8)}`;
  const tokens = await groupsWithTokens(prefix, 1);
  await page.goto('/testing/bulk');
  await page.getByLabel('Tokens to rotate').fill(tokens.join('\n'));
  await page.getByRole('button', { name: 'Check the tokens' }).click();
  await expect(page.getByRole('heading', { name: 'Rotate tokens — pasted tokens' })).toBeVisible();
  const rotation = new URL(page.url()).pathname;

  const viewer = await browser.newContext({ storageState: viewerState });
  try {
    const viewerPage = await viewer.newPage();
    const opened = await viewerPage.goto(rotation);
    expect(opened?.status()).toBe(403);
    await expect(viewerPage.getByRole('heading', { name: 'Your role may not open this page' })).toBeVisible();
    await expect(viewerPage.locator('body')).not.toContainText(prefix);
    for (const part of ['', '/rows', '/result', '/preview']) {
      const answer = await viewerPage.request.get(
        `${rotation.replace('/testing/bulk/', '/api/jobs/')}${part}`,
      );
      expect(answer.status(), part || 'progress').toBe(403);
      expect((await answer.json()).error.code).toBe('forbidden');
    }
  } finally {
    await viewer.close();
  }
});
