/**
 * Why a job paused by itself: one of a closed set, stored as its code in bulk_job.paused_reason and
 * put into words where it is shown. Storing the words of whatever error stopped the job would show
 * a person what a library saw (an invalid URL, a stack's wording) instead of what to do about it.
 */
import type { Environment } from '@/lib/environments';

export const pauseReasons = [
  'api_key_refused',
  'environment_not_configured',
  'environment_unusable',
] as const;
export type PauseReason = (typeof pauseReasons)[number];

function isPauseReason(value: unknown): value is PauseReason {
  return (pauseReasons as readonly unknown[]).includes(value);
}

/** The variable the console reads an environment's API key from (lib/config). */
const keyVariable = (environment: Environment) => `USER_GROUP_API_KEY_${environment.toUpperCase()}`;

/** The rows a paused job had not finished are kept: each says so, since it is what a person asks first. */
const words: Record<PauseReason, (environment: Environment) => string> = {
  api_key_refused: (environment) =>
    `The User Group Service refused the console's API key for ${environment}, so the job paused. Check ${keyVariable(environment)}, restart the console, then resume the job: its unfinished rows run then.`,
  environment_not_configured: (environment) =>
    `The console has no API key for ${environment} (${keyVariable(environment)}), so the job paused. Set it, restart the console, then resume the job: its unfinished rows run then.`,
  environment_unusable: (environment) =>
    `The console could not set up its connection to the ${environment} User Group Service, so the job paused. The console's log (component "jobs") says why; once that is fixed, resume the job: its unfinished rows run then.`,
};

/**
 * What a paused job's page says about why it paused; null when it paused because a person paused it.
 * A value outside the set (written by a newer console) gets words that send the reader to the log.
 */
export function describePauseReason(reason: string | null, environment: Environment): string | null {
  if (reason === null) return null;
  if (isPauseReason(reason)) return words[reason](environment);
  return `The job paused by itself. The console's log (component "jobs") says why; once that is fixed, resume the job: its unfinished rows run then.`;
}
