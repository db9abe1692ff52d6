import { defineConfig, devices } from '@playwright/test';
import { chromiumArgs, chromiumExecutable } from './e2e/support/chromium';
import { consoleDataDir, consolePort, consoleUrl, e2eDataDir } from './e2e/support/servers';

export default defineConfig({
  testDir: './e2e',
  globalSetup: './e2e/support/global-setup.ts',
  fullyParallel: false,
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
  // The real console on the embedded default (npm start's launcher), on throwaway data.
  webServer: {
    command: `rm -rf ${e2eDataDir} && node --import tsx lib/launcher/start.ts`,
    url: consoleUrl,
    env: { PORT: String(consolePort), HOSTNAME: '127.0.0.1', DATA_DIR: consoleDataDir, LOG_LEVEL: 'info' },
    reuseExistingServer: false,
    timeout: 180_000,
    stdout: 'pipe',
    stderr: 'pipe',
    gracefulShutdown: { signal: 'SIGTERM', timeout: 10_000 },
  },
});
