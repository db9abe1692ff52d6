import { readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { adminCredentials } from './support/auth-states';
import { consoleLogFile } from './support/servers';

/**
 * The first start as its person reads it (#43, item 8): the first admin's email (and where the
 * password is) are the start-up output's last lines, after "console on …", and the requests the
 * run has made since (sign-ins, pages, API calls) do not bury them: at the default level (info,
 * which playwright.config.ts sets) nothing is logged per request.
 */
test('the first admin’s lines end the start-up output, and requests do not bury them', async ({
  request,
}) => {
  // A few requests of this test's own, besides the setup project's sign-ins.
  for (let call = 0; call < 3; call++) expect((await request.get('/api/health')).ok()).toBe(true);
  const lines = readFileSync(consoleLogFile, 'utf8').split('\n').filter(Boolean);
  const consoleOn = lines.findIndex((line) => line.startsWith('[console] console on '));
  const firstAdmin = lines.findIndex((line) => line.startsWith('[console] First admin: '));
  expect(consoleOn, 'the "console on" line').toBeGreaterThanOrEqual(0);
  expect(firstAdmin, 'the first admin’s line').toBeGreaterThan(consoleOn);
  expect(lines[firstAdmin]).toContain(adminCredentials.email);
  expect(lines[firstAdmin]).toContain('CONSOLE_ADMIN_PASSWORD');
  // Below it: no line per answered request (a refusal or a failure is still worth one).
  const after = lines.slice(firstAdmin + 1);
  const answered = after.filter(
    (line) => line.includes('"msg":"console request"') && /"status":[23]\d\d/.test(line),
  );
  expect(answered).toEqual([]);
});
