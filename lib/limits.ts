/** Limits the console enforces in more than one place, defined once. */

/** Operator passwords: long rather than clever (better-auth hashes them with scrypt). */
export const MIN_PASSWORD_LENGTH = 12;
export const MAX_PASSWORD_LENGTH = 128;

/** The largest request body any console route reads. */
export const MAX_BODY_BYTES = 1024 * 1024;

/**
 * Wrong proofs (passwords, codes, passkeys typed or presented while signed in, on any route) that
 * end the session: the limit alone would let a stolen session guess at its pace for the session's
 * whole life; after this many in all it must sign in again (lib/two-factor/proofs.ts).
 */
export const WRONG_PROOF_LIMIT = 5;

/**
 * Token look-ups (Identify) per operator and minute: enough for a person pasting tokens one by
 * one through an incident, not for a script walking a dump of them.
 */
export const IDENTIFY_PER_MINUTE = 30;

/**
 * Pasted tokens a draft rotation job may look up per operator and hour: a job's worth (a leak's
 * whole list of up to MAX_ROTATIONS), not a way around IDENTIFY_PER_MINUTE for a script.
 */
export const DRAFT_LOOK_UPS_PER_HOUR = 10_000;

/**
 * SCIM requests per minute, the whole console (one identity provider): above what Okta and Entra
 * ID send while provisioning thousands of people (they slow down on 429 and its Retry-After).
 */
export const SCIM_REQUESTS_PER_MINUTE = 1200;

/** SCIM requests refused for a wrong or missing token, per client address and minute. */
export const SCIM_REFUSALS_PER_MINUTE = 20;
