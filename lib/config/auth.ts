import { z } from 'zod';
import { MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH } from '@/lib/limits';
import { type Role, roleSchema } from '@/lib/roles';
import { ConfigError, optional, type ParsedEnv, positiveInteger } from './env-values';

export interface AuthConfig {
  secret: string | undefined;
  sessionTtlSeconds: number;
  signInRateLimit: { max: number; windowSeconds: number } | null;
  /** Roles whose password operators must have a second factor before they may do anything else. */
  requireSecondFactor: Role[];
  /** …and SSO operators too (otherwise their identity provider decides). */
  requireSecondFactorForSso: boolean;
  /** A Customer token or change needs an authentication this recent (a sign-in or a step-up). */
  stepUpSeconds: number;
  firstAdmin: { email: string; password: string | undefined };
}

const DEFAULT_ADMIN_EMAIL = 'admin@console.localhost';

const rateLimitSchema = z
  .string()
  .trim()
  .default('5/60')
  .transform((value, context) => {
    if (value.toLowerCase() === 'off') return null;
    const match = /^(\d+)\s*\/\s*(\d+)$/.exec(value);
    const max = Number(match?.[1]);
    const windowSeconds = Number(match?.[2]);
    if (!match || max < 1 || windowSeconds < 1) {
      context.addIssue({
        code: 'custom',
        message: 'CONSOLE_SIGN_IN_RATE_LIMIT must be "attempts/seconds" (for example 5/60) or "off"',
      });
      return z.NEVER;
    }
    return { max, windowSeconds };
  });

/** Sessions, the sign-in limit, second factors and step-up. */
export const sessionEnv = {
  BETTER_AUTH_SECRET: optional(
    z.string().min(32, { error: 'BETTER_AUTH_SECRET must be at least 32 characters' }),
  ),
  CONSOLE_SESSION_TTL_HOURS: z.coerce
    .number({ error: 'CONSOLE_SESSION_TTL_HOURS must be a number of hours' })
    .positive()
    .max(24 * 30)
    .default(12),
  CONSOLE_SIGN_IN_RATE_LIMIT: rateLimitSchema,
  CONSOLE_REQUIRE_2FA: optional(z.string()).transform((value, context) => {
    const names = (value ?? '')
      .split(',')
      .map((name) => name.trim().toLowerCase())
      .filter((name) => name !== '' && name !== 'none');
    const unknown = names.filter((name) => !roleSchema.safeParse(name).success);
    if (unknown.length > 0) {
      context.addIssue({
        code: 'custom',
        message: 'CONSOLE_REQUIRE_2FA must list roles (admin, support, viewer), comma-separated, or be unset',
      });
      return z.NEVER;
    }
    return [...new Set(names)] as Role[];
  }),
  CONSOLE_REQUIRE_2FA_FOR_SSO: optional(z.enum(['true', 'false', '1', '0'])).transform(
    (value) => value === 'true' || value === '1',
  ),
  CONSOLE_STEP_UP_MINUTES: positiveInteger('CONSOLE_STEP_UP_MINUTES', 'minutes', 15),
};

/** The admin the launcher creates on first start. */
export const firstAdminEnv = {
  CONSOLE_ADMIN_EMAIL: optional(z.email({ error: 'CONSOLE_ADMIN_EMAIL must be an email address' })),
  CONSOLE_ADMIN_PASSWORD: optional(
    z
      .string()
      .min(MIN_PASSWORD_LENGTH, {
        error: `CONSOLE_ADMIN_PASSWORD must be at least ${MIN_PASSWORD_LENGTH} characters`,
      })
      .max(MAX_PASSWORD_LENGTH, {
        error: `CONSOLE_ADMIN_PASSWORD must be at most ${MAX_PASSWORD_LENGTH} characters`,
      }),
  ),
};

type AuthSettings = ParsedEnv<typeof sessionEnv> &
  ParsedEnv<typeof firstAdminEnv> & { DATABASE_URL?: string | undefined };

export function authConfig(settings: AuthSettings): AuthConfig {
  // Several instances share a PostgreSQL database and each other's sessions: a secret generated
  // into each instance's DATA_DIR would make every other instance refuse its cookies.
  if (settings.DATABASE_URL && !settings.BETTER_AUTH_SECRET) {
    throw new ConfigError(
      'DATABASE_URL is set but BETTER_AUTH_SECRET is not: set it (32+ characters), the same on every console instance that shares the database.',
    );
  }
  return {
    secret: settings.BETTER_AUTH_SECRET,
    sessionTtlSeconds: Math.round(settings.CONSOLE_SESSION_TTL_HOURS * 3600),
    signInRateLimit: settings.CONSOLE_SIGN_IN_RATE_LIMIT,
    requireSecondFactor: settings.CONSOLE_REQUIRE_2FA,
    requireSecondFactorForSso: settings.CONSOLE_REQUIRE_2FA_FOR_SSO,
    stepUpSeconds: settings.CONSOLE_STEP_UP_MINUTES * 60,
    firstAdmin: {
      email: (settings.CONSOLE_ADMIN_EMAIL ?? DEFAULT_ADMIN_EMAIL).toLowerCase(),
      password: settings.CONSOLE_ADMIN_PASSWORD,
    },
  };
}
