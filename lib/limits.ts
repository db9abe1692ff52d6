/** Limits the console enforces in more than one place, defined once. */

/** Operator passwords: long rather than clever (better-auth hashes them with scrypt). */
export const MIN_PASSWORD_LENGTH = 12;
export const MAX_PASSWORD_LENGTH = 128;

/** The largest request body any console route reads. */
export const MAX_BODY_BYTES = 1024 * 1024;
