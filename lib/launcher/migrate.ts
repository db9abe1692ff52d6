/**
 * `npm run migrate`: brings the console database up to date and creates the first admin when there
 * is none, as `npm start` does before it starts the console, for deployments that start the
 * console's server some other way (`next start`, several instances on one PostgreSQL database).
 * Safe to run from several instances at once, and again at every deploy.
 */
import { realClock } from '@/lib/clock';
import { parseConfig } from '@/lib/config';
import { describeDatabase } from '@/lib/db/describe';
import { redactUrlsInText } from '@/lib/redact-url';
import { prepareOperatorSignIn } from './operator-sign-in';

function log(message: string): void {
  process.stdout.write(`[console] ${message}\n`);
}

try {
  const config = parseConfig(process.env);
  const { firstAdminLines } = await prepareOperatorSignIn(config, log, realClock);
  log(`console database up to date (${describeDatabase(config.database)})`);
  for (const line of firstAdminLines) log(line);
} catch (error) {
  process.stderr.write(
    `[console] could not migrate: ${redactUrlsInText(error instanceof Error ? error.message : String(error))}\n`,
  );
  process.exit(1);
}
