import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test as teardown } from '@playwright/test';
import { consoleApiKeys } from './support/fixtures';
import { mockOidc } from './support/oidc-settings';
import { e2eAuthSecret, e2eDatabaseEnv } from './support/postgres-database';
import { scimToken } from './support/scim';
import { seenSecrets } from './support/seen-secrets';
import { consoleDataDir, consoleLogFile } from './support/servers';

/**
 * The last step of the run: the console's output (e2e/.data/console.log, which the webServer
 * command tees) holds none of the tokens, keys and passwords the run saw.
 */
teardown('the console logs hold no token, key or password seen during the run', () => {
  expect(existsSync(consoleLogFile), consoleLogFile).toBe(true);
  const log = readFileSync(consoleLogFile, 'utf8');
  // The log is the console's output at the run's level (info: the launcher's lines, refusals and
  // failures; answered requests are logged at debug).
  expect(log).toContain('[console] console on ');

  const secrets = new Map<string, string>();
  for (const secret of seenSecrets()) secrets.set(secret, 'seen in a response or used to sign in');
  for (const apiKey of consoleApiKeys()) secrets.set(apiKey, "one of the console's API keys");
  secrets.set(mockOidc.clientSecret, 'the OIDC client secret');
  secrets.set(scimToken, 'the SCIM token');
  if (e2eDatabaseEnv().BETTER_AUTH_SECRET) secrets.set(e2eAuthSecret, "better-auth's secret");
  const authSecretFile = path.join(consoleDataDir, 'auth-secret');
  if (existsSync(authSecretFile))
    secrets.set(readFileSync(authSecretFile, 'utf8').trim(), "better-auth's secret");

  // At least the operators' passwords and session cookies, plus every token a spec saw.
  expect(seenSecrets().length, 'secrets recorded during the run').toBeGreaterThan(3);
  const found = [...secrets]
    .filter(([secret]) => log.includes(secret))
    .map(([secret, what]) => `${what}: ${secret.slice(0, 4)}…`);
  expect(found).toEqual([]);
});
