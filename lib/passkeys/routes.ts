/**
 * The operator's own passkeys: listed, added and removed. Their console routes' definitions
 * (lib/console-api/define-route.ts), gathered with every feature's in lib/console-api/routes.ts. Plain
 * module: the browser imports it.
 */
import { defineRoute } from '@/lib/console-api/define-route';
import {
  addedPasskeySchema,
  addPasskeySchema,
  newPasskeySchema,
  passkeyListSchema,
  webAuthnOptionsSchema,
} from '@/lib/passkeys/contract';
import { doneSchema } from '@/lib/two-factor/contract';

export const passkeyRoutes = {
  /** The operator's passkeys (name, when added). */
  listPasskeys: defineRoute({
    name: 'account.passkeys',
    method: 'GET',
    path: '/api/account/passkeys',
    permission: 'console:use',
    beforeSecondFactor: 'to-enrol',
    answer: passkeyListSchema,
  }),
  /**
   * Adding a passkey, step one: the options for the browser's authenticator (and a challenge
   * cookie). Needs a recent authentication (the step-up window), as a new way in.
   */
  startPasskey: defineRoute({
    name: 'account.passkeys.start',
    method: 'POST',
    path: '/api/account/passkeys/options',
    permission: 'console:use',
    stepUp: 'own-account',
    beforeSecondFactor: 'to-enrol',
    body: newPasskeySchema,
    answer: webAuthnOptionsSchema,
  }),
  /** Step two: the authenticator's answer; the passkey is kept under its name. */
  addPasskey: defineRoute({
    audits: ['passkey.add'],
    name: 'account.passkeys.add',
    method: 'POST',
    path: '/api/account/passkeys',
    permission: 'console:use',
    stepUp: 'own-account',
    beforeSecondFactor: 'to-enrol',
    body: addPasskeySchema,
    answer: addedPasskeySchema,
  }),
  removePasskey: defineRoute({
    audits: ['passkey.remove'],
    name: 'account.passkeys.remove',
    method: 'POST',
    path: '/api/account/passkeys/[id]/remove',
    permission: 'console:use',
    answer: doneSchema,
    stepUp: 'own-account',
  }),
};
