import type { Clock } from '@/lib/clock';
import 'server-only';
import { sql } from 'kysely';
import type { ConsoleConfig } from '@/lib/config/index';
import { ConsoleError } from '@/lib/console-error';
import type { ConsoleDb } from '@/lib/db/console-database';
import { type Environment, environmentLooks } from '@/lib/environments';
import { plural } from '@/lib/plural';
import type { Operator } from '@/lib/server';

/**
 * Two checks on top of the role (lib/roles.ts), both made by the server whatever the page did:
 *
 * - The second-factor policy (CONSOLE_REQUIRE_2FA): an operator of a listed role who has no second
 *   factor may only enrol one. SSO operators are exempt unless CONSOLE_REQUIRE_2FA_FOR_SSO is set:
 *   their identity provider decides. With it set, an SSO sign-in proves no second factor, so such
 *   an operator who has one confirms it with a code before anything else. A passkey counts as a
 *   second factor (it asks for a PIN or biometrics), and so does a sign-in with one.
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

/** What this session must still do before anything else: enrol a second factor, or use the one it has. */
export type SecondFactorDue = 'enrol' | 'confirm' | null;

/**
 * An operator who has a second factor uses it after every password sign-in, policy or not (a
 * passkey-only operator's second step is the passkey), so a password alone never opens the console
 * for them; after an SSO sign-in only where the policy covers SSO (otherwise their IdP decides).
 * One who has none enrols one first where the policy names their role.
 */
export function secondFactorDue(operator: Operator, config: ConsoleConfig): SecondFactorDue {
  const hasOne = operator.twoFactorEnabled || operator.passkeys > 0;
  if (operator.session.signInMethod === 'sso' && !mustKeepSecondFactor(operator, config)) return null;
  if (hasOne) return operator.session.secondFactorProved ? null : 'confirm';
  return mustKeepSecondFactor(operator, config) ? 'enrol' : null;
}

export const secondFactorRequired = (due: Exclude<SecondFactorDue, null>) =>
  new ConsoleError(
    'second_factor_required',
    due === 'enrol'
      ? 'Your role must have a second factor: add a passkey or set up an authenticator app on your account page first.'
      : 'Confirm your second factor first: use your passkey or enter your authenticator code on your account page.',
  );

/**
 * Where a recent authentication is asked: in production (Customer); for every change of access
 * (`privileges`); for changes to one's own ways in (`own-account`: a passkey, or an authenticator
 * app changed without a password), whatever the environment.
 */
export type StepUpScope = { environment: Environment } | 'privileges' | 'own-account';

const askedFor: Record<Exclude<StepUpScope, { environment: Environment }>, string> = {
  privileges: 'changing operators, their roles, invitations, second factors or sessions needs',
  'own-account': 'changing how you sign in needs',
};

function windowOpen(operator: Operator, config: ConsoleConfig, now: number): boolean {
  return now - operator.session.authenticatedAt <= config.auth.stepUpSeconds * 1000;
}

/** Whether an action in this scope asks for a recent authentication (production does; Testing never). */
function stepsUp(scope: StepUpScope): boolean {
  return typeof scope === 'string' || environmentLooks[scope.environment].kind === 'production';
}

/** Throws step_up_required when the action needs a fresher authentication than the session has. */
export function requireRecentAuthentication(
  operator: Operator,
  scope: StepUpScope,
  config: ConsoleConfig,
  clock: Pick<Clock, 'now'>,
): void {
  if (!stepsUp(scope) || windowOpen(operator, config, clock.now())) return;
  const minutes = plural(Math.round(config.auth.stepUpSeconds / 60), 'minute');
  const what =
    typeof scope === 'string'
      ? askedFor[scope]
      : `${environmentLooks[scope.environment].label} tokens and changes need`;
  throw new ConsoleError(
    'step_up_required',
    `Confirm it is you: ${what} you to have signed in or confirmed within the last ${minutes}.`,
  );
}

/**
 * When this session's recent authentication runs out for production tokens, in ms from now (0 when
 * it has): a token already on a page asks again after it (components/secret-field.tsx).
 */
export function stepUpRemainingMs(
  operator: Operator,
  config: ConsoleConfig,
  clock: Pick<Clock, 'now'>,
): number {
  return Math.max(0, operator.session.authenticatedAt + config.auth.stepUpSeconds * 1000 - clock.now());
}

/**
 * Marks the session as authenticated now; a code or a passkey (not the password) also proves its
 * second factor. Its count of wrong proofs stays: five in all end it (lib/two-factor/proofs.ts).
 */
export async function recordStepUp(
  db: ConsoleDb,
  sessionId: string,
  secondFactor: boolean,
  clock: Pick<Clock, 'now'>,
): Promise<void> {
  const now = new Date(clock.now()).toISOString();
  await db
    .updateTable('session')
    .set({ steppedUpAt: now, ...(secondFactor ? { secondFactorAt: now } : {}) })
    .where('id', '=', sessionId)
    .execute();
}

/** Marks the session as having proved a second factor now (a passkey just added, with its PIN or biometrics). */
export async function recordSecondFactor(
  db: ConsoleDb,
  sessionId: string,
  clock: Pick<Clock, 'now'>,
): Promise<void> {
  await db
    .updateTable('session')
    .set({ secondFactorAt: new Date(clock.now()).toISOString() })
    .where('id', '=', sessionId)
    .execute();
}

/** Counts one wrong proof against the session; answers how many it has had in all. */
export async function countWrongProof(db: ConsoleDb, sessionId: string): Promise<number> {
  const row = await db
    .updateTable('session')
    .set((eb) => ({ stepUpFailures: sql<number>`coalesce(${eb.ref('stepUpFailures')}, 0) + 1` }))
    .where('id', '=', sessionId)
    .returning('stepUpFailures')
    .executeTakeFirst();
  return Number(row?.stepUpFailures ?? 0);
}
