import { existsSync } from 'node:fs';
import { chromium } from '@playwright/test';
import { chromiumExecutable, noChromiumHelp } from './chromium';

/** Fails fast, with the way out, when no browser is there to drive. */
export default function globalSetup(): void {
  if (chromiumExecutable()) return;
  if (existsSync(chromium.executablePath())) return;
  throw new Error(noChromiumHelp);
}
