import { readFileSync } from 'node:fs';
import path from 'node:path';
import { test as base, expect, type Page } from '@playwright/test';
import { rememberSecrets, tokensIn } from './seen-secrets';
import { consoleDataDir } from './servers';

/** The embedded console's API keys by environment, as the launcher stored them for this run. */
function storedApiKeys(): Record<string, { key: string }> {
  return JSON.parse(readFileSync(path.join(consoleDataDir, 'console-api-keys.json'), 'utf8'));
}

export function consoleApiKeys(): string[] {
  return Object.values(storedApiKeys()).map(({ key }) => key);
}

export function consoleApiKeyOf(environment: 'Customer' | 'Testing'): string {
  const key = storedApiKeys()[environment]?.key;
  if (!key) throw new Error(`the run's console stored no API key for ${environment}`);
  return key;
}

interface RecordedResponse {
  url: string;
  body: string;
}

/**
 * Every test records each response the browser receives (documents, scripts, API answers) and,
 * when it ends, asserts that none of them carries the console's API key. The user group tokens
 * among them are remembered for the log search at the end of the run (seen-secrets.ts).
 */
export const test = base.extend<{ recordedResponses: RecordedResponse[]; browserErrors: string[] }>({
  context: async ({ context }, use) => {
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    await use(context);
  },
  recordedResponses: [
    async ({ page }, use) => {
      const recorded: RecordedResponse[] = [];
      const pending: Promise<void>[] = [];
      page.on('response', (response) => {
        pending.push(
          response
            .body()
            .then((body) => {
              recorded.push({ url: response.url(), body: body.toString('utf8') });
            })
            .catch(() => undefined), // redirects and aborted loads have no body
        );
      });
      await use(recorded);
      await Promise.all(pending);
      // For the end of the run: the console's logs must hold none of the tokens the browser saw.
      rememberSecrets(
        ...recorded
          .filter((response) => response.url.includes('/api/user-groups/'))
          .flatMap((response) => tokensIn(response.body)),
      );
      const apiKeys = consoleApiKeys();
      expect(apiKeys).toHaveLength(2);
      const leaks = recorded
        .filter((response) => apiKeys.some((apiKey) => response.body.includes(apiKey)))
        .map((response) => response.url);
      expect(leaks, 'responses that carried the API key').toEqual([]);
      expect(recorded.some((response) => /\.js(\?|$)/.test(response.url))).toBe(true);
    },
    { auto: true },
  ],
  /**
   * Every test fails on an error the page logged or threw: a script error, or a CSP violation (an
   * inline style or script the policy refused) at whatever level Chromium logs it (an error, or a
   * warning for a report-only policy). An answer with an error status is not one: the console's
   * pages show a refusal in words, and Chromium logs the status itself.
   */
  browserErrors: [
    async ({ page }, use) => {
      const errors: string[] = [];
      page.on('pageerror', (error) => errors.push(`uncaught: ${error.message}`));
      page.on('console', (message) => {
        const text = message.text();
        if (/Content.Security.Policy|Refused to /i.test(text))
          return void errors.push(`console ${message.type()}: ${text}`);
        if (message.type() !== 'error') return;
        if (/^Failed to load resource: the server responded with a status of \d+/.test(text)) return;
        errors.push(`console error: ${text}`);
      });
      await use(errors);
      expect(errors, 'errors and CSP violations the browser logged').toEqual([]);
    },
    { auto: true },
  ],
});

export { expect };

/** Requests the page sent to one of the console's route handlers. */
export function trackRequests(page: Page, pathname: string): string[] {
  const seen: string[] = [];
  page.on('request', (request) => {
    if (new URL(request.url()).pathname === pathname) seen.push(request.method());
  });
  return seen;
}
