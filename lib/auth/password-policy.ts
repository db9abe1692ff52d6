/** Operator passwords: long rather than clever (better-auth hashes them with scrypt). */
export const MIN_PASSWORD_LENGTH = 12;
export const MAX_PASSWORD_LENGTH = 128;
