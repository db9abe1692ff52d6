/**
 * The second factor: enrolling an authenticator app, backup codes, an admin's reset, and the step-up that
 * confirms it again. Their console routes' definitions (lib/console-api/define-route.ts), gathered with every
 * feature's in lib/console-api/routes.ts. Plain module: the browser imports it.
 */
import { defineRoute } from '@/lib/console-api/define-route';
import { webAuthnOptionsSchema } from '@/lib/passkeys/contract';
import {
  backupCodesSchema,
  confirmEnrolmentSchema,
  doneSchema,
  enrolmentSchema,
  passwordConfirmationSchema,
  stepUpResultSchema,
  stepUpSchema,
} from '@/lib/two-factor/contract';

export const twoFactorRoutes = {
  /** An admin turns off an operator's second factor (a lost phone): they enrol again. */
  resetSecondFactor: defineRoute({
    audits: ['two-factor.reset'],
    name: 'operators.reset-two-factor',
    method: 'POST',
    path: '/api/operators/[id]/two-factor/reset',
    permission: 'operators:manage',
    stepUp: 'always',
    answer: doneSchema,
  }),
  /** Enrolling an authenticator app, step one: the password, then the secret and backup codes back. */
  startTwoFactor: defineRoute({
    audits: ['two-factor.enrol'],
    name: 'account.two-factor.start',
    method: 'POST',
    path: '/api/account/two-factor',
    permission: 'console:use',
    beforeSecondFactor: 'to-enrol',
    stepUp: 'own-account-password',
    body: passwordConfirmationSchema,
    answer: enrolmentSchema,
  }),
  /** Step two: the app's first code turns the second factor on. */
  confirmTwoFactor: defineRoute({
    audits: ['two-factor.enrol'],
    name: 'account.two-factor.confirm',
    method: 'POST',
    path: '/api/account/two-factor/confirm',
    permission: 'console:use',
    beforeSecondFactor: 'to-enrol',
    body: confirmEnrolmentSchema,
    answer: doneSchema,
  }),
  /** Ten new backup codes; the old ones stop working. */
  newBackupCodes: defineRoute({
    audits: ['two-factor.backup-codes'],
    name: 'account.two-factor.backup-codes',
    method: 'POST',
    path: '/api/account/two-factor/backup-codes',
    permission: 'console:use',
    stepUp: 'own-account-password',
    body: passwordConfirmationSchema,
    answer: backupCodesSchema,
  }),
  removeTwoFactor: defineRoute({
    audits: ['two-factor.remove'],
    name: 'account.two-factor.remove',
    method: 'POST',
    path: '/api/account/two-factor/remove',
    permission: 'console:use',
    stepUp: 'own-account-password',
    body: passwordConfirmationSchema,
    answer: doneSchema,
  }),
  /** Confirming who you are again, for production tokens and changes (lib/two-factor/step-up.ts). */
  stepUp: defineRoute({
    audits: ['step-up'],
    name: 'step-up',
    method: 'POST',
    path: '/api/step-up',
    permission: 'console:use',
    // Also the way an SSO session proves its second factor when the policy asks (lib/two-factor/step-up.ts).
    beforeSecondFactor: 'to-confirm',
    body: stepUpSchema,
    answer: stepUpResultSchema,
  }),
  /** A step-up with a passkey, step one: the challenge for the operator's own passkeys. */
  stepUpPasskey: defineRoute({
    name: 'step-up.passkey',
    method: 'POST',
    path: '/api/step-up/passkey',
    permission: 'console:use',
    // Also the passkey-only operator's second step after a password sign-in.
    beforeSecondFactor: 'to-confirm',
    answer: webAuthnOptionsSchema,
  }),
};
