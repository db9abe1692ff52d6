import 'server-only';
import type { ConsoleConfig } from '@/lib/config';
import { ConsoleError } from '@/lib/console-api/console-error';
import type { ConsoleDb } from '@/lib/db/console-database';
import { type Environment, environmentLooks } from '@/lib/environments';
import { plural } from '@/lib/plural';
import type { Operator } from './index';

/**
 * Two checks on top of the role (lib/roles.ts), both made by the server whatever the page did:
 *
 * - The second-factor policy (CONSOLE_REQUIRE_2FA): an operator of a listed role who has no second
 *   factor may only enrol one. SSO operators are exempt unless CONSOLE_REQUIRE_2FA_FOR_SSO is set:
 *   their identity provider decides. A passkey counts as a second factor (it asks for a PIN or
 *   biometrics), and so does a sign-in with one.
 * - Step-up: a production token or change (revealing, copying, rotating, deleting, a bulk job, its
 *   tokens) needs an authentication within CONSOLE_STEP_UP_MINUTES: the sign-in itself, or a
 *   step-up since (a password, an authenticator code or a backup code, POST /api/step-up).
 *   Testing, the sandbox, needs none.
 */

/** Whether the policy asks this operator for a second factor (an authenticator app or a passkey). */
export function mustKeepSecondFactor(operator: Operator, config: ConsoleConfig): boolean {
  if (operator.role === null || !config.auth.requireSecondFactor.includes(operator.role)) return false;
  return operator.session.signInMethod !== 'sso' || config.auth.requireSecondFactorForSso;
}

export function mustEnrolSecondFactor(operator: Operator, config: ConsoleConfig): boolean {
  if (operator.twoFactorEnabled || operator.passkeys > 0) return false;
  return mustKeepSecondFactor(operator, config);
}

export const secondFactorRequired = () =>
  new ConsoleError(
    'second_factor_required',
    'Your role must have a second factor: add a passkey or set up an authenticator app on your account page first.',
  );

/** Whether an action in this environment asks for a recent authentication (production does). */
function stepsUp(environment: Environment): boolean {
  return environmentLooks[environment].kind === 'production';
}

function needsStepUp(
  operator: Operator,
  environment: Environment,
  config: ConsoleConfig,
  now = Date.now(),
): boolean {
  return stepsUp(environment) && now - operator.session.authenticatedAt > config.auth.stepUpSeconds * 1000;
}

/** Throws step_up_required when the action needs a fresher authentication than the session has. */
export function requireRecentAuthentication(
  operator: Operator,
  environment: Environment,
  config: ConsoleConfig,
): void {
  if (!needsStepUp(operator, environment, config)) return;
  const minutes = Math.round(config.auth.stepUpSeconds / 60);
  throw new ConsoleError(
    'step_up_required',
    `Confirm it is you: ${environmentLooks[environment].label} tokens and changes need you to have signed in or confirmed within the last ${plural(minutes, 'minute')}.`,
  );
}

/**
 * Throws step_up_required unless the operator authenticated within the step-up window, whatever
 * the environment: for changes to their own ways in (adding or removing a passkey).
 */
export function requireRecentAccountAuthentication(operator: Operator, config: ConsoleConfig): void {
  if (Date.now() - operator.session.authenticatedAt <= config.auth.stepUpSeconds * 1000) return;
  const minutes = Math.round(config.auth.stepUpSeconds / 60);
  throw new ConsoleError(
    'step_up_required',
    `Confirm it is you: changing your passkeys needs you to have signed in or confirmed within the last ${plural(minutes, 'minute')}.`,
  );
}

/** Marks the session as authenticated now. */
export async function recordStepUp(db: ConsoleDb, sessionId: string): Promise<void> {
  await db
    .updateTable('session')
    .set({ steppedUpAt: new Date().toISOString() })
    .where('id', '=', sessionId)
    .execute();
}
