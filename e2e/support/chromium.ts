import { existsSync } from 'node:fs';

/**
 * Which Chromium the e2e tests drive: CHROMIUM_PATH when set, else Debian's /usr/bin/chromium,
 * else Playwright's own download (`npx playwright install chromium`) when one is installed.
 * Returns undefined for the last case: Playwright then finds its own browser.
 */
export function chromiumExecutable(): string | undefined {
  const explicit = process.env.CHROMIUM_PATH;
  if (explicit) {
    if (!existsSync(explicit)) throw new Error(`CHROMIUM_PATH=${explicit} does not exist.`);
    return explicit;
  }
  for (const candidate of ['/usr/bin/chromium', '/usr/bin/chromium-browser']) {
    if (existsSync(candidate)) return candidate;
  }
  return undefined;
}

export const chromiumArgs = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];

export const noChromiumHelp =
  'No Chromium found for the e2e tests. Install one: `sudo apt-get install -y chromium` (Debian/Ubuntu), ' +
  'or `npx playwright install chromium`, or point CHROMIUM_PATH at a Chromium or Chrome binary.';
