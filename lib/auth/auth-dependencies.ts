/**
 * What better-auth's set-up is handed by the composition root (its log, the sign-in record's hooks),
 * apart from lib/auth/options.ts so that the hooks it wires (session-hooks.ts, sso-hooks.ts) import
 * these types without importing the module that imports them.
 */
import type { Clock } from '@/lib/clock';

type LogLevel = 'debug' | 'info' | 'warn' | 'error';

export interface NewSession {
  userId: string;
  token: string;
  /** better-auth's endpoint: /sign-in/email, /callback/<provider>, /two-factor/verify-totp, … */
  path: string | undefined;
}

/** How a session was signed in: policy and step-up treat SSO operators as their IdP decides. */
export type SignInMethod = 'password' | 'passkey' | 'sso';

export interface ConsoleAuthDependencies {
  /** Receives better-auth's messages (never its extra arguments, which may hold request data). */
  log: (level: LogLevel, message: string) => void;
  /**
   * Before any session is created (a sign-in, by password or SSO): puts it on record. When this
   * throws, no session is created and the sign-in fails with SIGN_IN_NOT_RECORDED.
   */
  onSessionCreating?: (session: NewSession) => Promise<void>;
  /** Once the session exists. It must not throw: the sign-in has happened by then. */
  onSessionCreated?: (session: NewSession) => Promise<void>;
  /**
   * Set while better-auth replaces the signed-in operator's session (enrolling a second factor,
   * changing a password): the new session is no sign-in, is not recorded as one, and keeps what
   * this says of the one it replaces.
   */
  replacedSessionCarry?: () => { signInMethod?: SignInMethod; secondFactorAt?: string | null } | undefined;
  /**
   * Within an SSO callback: keeps when the IdP authenticated the person (its ID token's `auth_time`,
   * read where better-auth stores the token on the account) for the session created next.
   */
  idpAuthentication?: { note(at: string | null): void; read(): string | null };
  /** What stamps a session's second factor (the console's clock). */
  clock: Pick<Clock, 'now'>;
}
