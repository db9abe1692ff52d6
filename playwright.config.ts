import { defineConfig, devices } from '@playwright/test';
import { adminCredentials, supportState } from './e2e/support/auth-states';
import { chromiumArgs, chromiumExecutable } from './e2e/support/chromium';
import { mailEnv, smtpReceiver } from './e2e/support/mail-settings';
import { mockOidc, oidcEnv } from './e2e/support/oidc-settings';
import { e2eDatabaseEnv, e2eOnPostgres } from './e2e/support/postgres-database';
import { scimEnv } from './e2e/support/scim';
import {
  consoleDataDir,
  consoleLogFile,
  consolePort,
  consoleUrl,
  e2eDataDir,
  e2eStepUpMinutes,
} from './e2e/support/servers';

/**
 * E2E_DATABASE=postgres (`npm run test:e2e:postgres`) runs the console on a PostgreSQL database of its
 * own, and only the journeys that go through every table the console writes: sign-in, sessions and
 * operators (better-auth), SSO identities, user groups (directory and search) and the audit log. The
 * other specs check pages, roles and upstream failures, which do not depend on the database: they
 * run once, on SQLite, rather than doubling the e2e run on a 2-core machine.
 */
const postgresJourneys = [
  /user-groups\.spec\.ts/,
  /audit\.spec\.ts/,
  /auth[\\/]operators\.spec\.ts/,
  /auth[\\/]sso\.spec\.ts/,
  // SCIM's own tables, and the sessions a deactivation deletes.
  /auth[\\/]scim\.spec\.ts/,
  // Only here: two console instances on one PostgreSQL database.
  /two-consoles\.spec\.ts/,
  // Two consoles of its own with CONSOLE_REQUIRE_APPROVAL on, on one PostgreSQL database.
  /approvals\.spec\.ts/,
  // A page's read the database stops at its limit: a lock only PostgreSQL's readers wait for.
  /page-read-failures\.spec\.ts/,
];

export default defineConfig({
  testDir: './e2e',
  globalSetup: './e2e/support/global-setup.ts',
  globalTeardown: './e2e/support/global-teardown.ts',
  fullyParallel: false,
  // One worker: the run keeps a 2-core machine busy with one already (load average 4.4 through the
  // 5.6 min run here, 2026-11-26: the console, Chromium and the test process), so a second browser
  // would share the same cores; and the specs share one console and its data.
  workers: 1,
  forbidOnly: Boolean(process.env.CI),
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: process.env.CI ? [['list']] : [['list'], ['html', { open: 'never' }]],
  use: {
    baseURL: consoleUrl,
    trace: 'retain-on-failure',
    ...devices['Desktop Chrome'],
    launchOptions: { executablePath: chromiumExecutable(), args: chromiumArgs },
  },
  projects: [
    // Signs in as the first admin, adds a support and a viewer operator, saves e2e/.auth/*.json.
    { name: 'setup', testMatch: /.*\.setup\.ts/, teardown: 'secrets' },
    // After everything else: the console's logs hold none of the tokens, keys and passwords seen.
    { name: 'secrets', testMatch: /.*\.teardown\.ts/ },
    // Every spec runs as `support` unless it says otherwise (test.use({ storageState: adminState })).
    {
      name: 'chromium',
      testIgnore: [/.*\.setup\.ts/, /.*\.teardown\.ts/],
      ...(e2eOnPostgres ? { testMatch: postgresJourneys } : {}),
      dependencies: ['setup'],
      use: { storageState: supportState },
    },
  ],
  webServer: [
    // An OpenID Connect provider for the SSO specs, started first so the console discovers it.
    {
      command: 'node --import tsx e2e/support/mock-oidc.ts',
      url: `${mockOidc.issuer}/healthz`,
      reuseExistingServer: false,
      timeout: 30_000,
      gracefulShutdown: { signal: 'SIGTERM', timeout: 5_000 },
    },
    // An SMTP server for invitations by email: it writes what it receives to e2e/.data/mail/.
    {
      command: 'node --import tsx e2e/support/smtp-receiver.ts',
      port: smtpReceiver.port,
      reuseExistingServer: false,
      timeout: 30_000,
      gracefulShutdown: { signal: 'SIGTERM', timeout: 5_000 },
    },
    // The real console on the embedded default, started as a deployment starts it: the launcher
    // compiled by `npm run build` (test:e2e runs it first), under plain node, on throwaway data; its
    // output goes to e2e/.data/console.log as well, for the search at the end of the run.
    {
      command: `rm -rf ${e2eDataDir} && mkdir -p ${e2eDataDir} && ${e2eOnPostgres ? 'node --import tsx e2e/support/postgres-database.ts create && ' : ''}node dist/launcher/start.js 2>&1 | tee ${consoleLogFile}`,
      url: consoleUrl,
      env: {
        PORT: String(consolePort),
        HOSTNAME: '127.0.0.1',
        DATA_DIR: consoleDataDir,
        LOG_LEVEL: 'info',
        CONSOLE_URL: consoleUrl,
        CONSOLE_ADMIN_EMAIL: adminCredentials.email,
        CONSOLE_ADMIN_PASSWORD: adminCredentials.password,
        CONSOLE_SIGN_IN_RATE_LIMIT: 'off',
        CONSOLE_STEP_UP_MINUTES: String(e2eStepUpMinutes),
        ...oidcEnv,
        ...scimEnv,
        ...mailEnv,
        ...e2eDatabaseEnv(),
      },
      reuseExistingServer: false,
      timeout: 180_000,
      stdout: 'pipe',
      stderr: 'pipe',
      gracefulShutdown: { signal: 'SIGTERM', timeout: 10_000 },
    },
  ],
});
