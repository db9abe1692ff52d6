/**
 * The tables better-auth owns (operators, accounts, sessions, verification, its two-factor and
 * passkey plugins) and the console's own sign-in tables, as far as the console reads them.
 */
/** The columns of better-auth's `user` table (with the admin plugin) that the console reads. */
export interface OperatorTable {
  id: string;
  email: string;
  name: string;
  role: string | null;
  /** 0/1 on SQLite, a boolean on PostgreSQL. */
  banned: number | boolean | null;
  /** The two-factor plugin's flag: 0/1 on SQLite, a boolean on PostgreSQL. */
  twoFactorEnabled: number | boolean | null;
  /**
   * better-auth writes dates to SQLite as ISO strings (older rows may hold epoch milliseconds);
   * PostgreSQL answers a Date.
   */
  createdAt: string | number | Date;
  /** The last whole sign-in (lib/server/compose.ts), for the operators list. */
  lastSignInAt: string | number | Date | null;
}

/** The columns of better-auth's `account` table the console reads (SSO identities). */
export interface AccountTable {
  id: string;
  userId: string;
  providerId: string;
}

/** The columns of better-auth's `session` table the console reads and writes (steps up, ends). */
export interface SessionTable {
  id: string;
  userId: string;
  token: string;
  createdAt: string | number | Date;
  expiresAt: string | number | Date;
  ipAddress: string | null;
  userAgent: string | null;
  signInMethod: string | null;
  steppedUpAt: string | number | Date | null;
  stepUpFailures: number | null;
  secondFactorAt: string | number | Date | null;
  idpAuthenticatedAt: string | number | Date | null;
}

/** better-auth's one-time values: the two-factor challenge of a sign-in names its operator. */
export interface VerificationTable {
  id: string;
  identifier: string;
  value: string;
  expiresAt: string | number | Date;
  createdAt: string | number | Date;
  updatedAt: string | number | Date;
}

/** The two-factor plugin's table: an admin's reset deletes the operator's row. */
export interface TwoFactorTable {
  id: string;
  userId: string;
}

/**
 * The passkey plugin's table (@better-auth/passkey): one row per passkey. The console lists, counts
 * and removes them, and checks a step-up against them; the public key and credential id never
 * leave the server.
 */
export interface PasskeyTable {
  id: string;
  userId: string;
  name: string | null;
  /** The credential's public key, base64 (COSE). */
  publicKey: string;
  /** The credential id, base64url, as the browser names it. */
  credentialID: string;
  counter: number;
  deviceType: string;
  /** 0/1 on SQLite, a boolean on PostgreSQL. */
  backedUp: number | boolean;
  /** Comma-separated (usb, internal, hybrid, …). */
  transports: string | null;
  createdAt: string | number | Date | null;
  aaguid: string | null;
}

/** One-time links that let an operator an admin added set their own password (lib/invitations). */
export interface InvitationTable {
  id: string;
  user_id: string;
  /** Hex SHA-256 of the link's secret; never the secret. */
  secret_hash: string;
  created_at: string;
  /** The admin who made it. */
  created_by: string | null;
  expires_at: string;
  used_at: string | null;
  /** Replaced by a new link, or revoked. */
  voided_at: string | null;
}

/** Authenticator codes already used, by a hash, until their life is over (lib/two-factor/used-codes.ts). */
export interface UsedCodeTable {
  identifier: string;
  expires_at: string;
}
