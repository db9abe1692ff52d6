import type { BetterAuthOptions } from 'better-auth';
import type { ConsoleConfig } from '@/lib/config';
import type { ConsoleDatabase } from '@/lib/db/console-database';
import type { ConsoleAuthDependencies } from './auth-dependencies';
import { isSsoCallback } from './sign-in-paths';
import { ssoLinkRefusal, ssoSignUpRefusal } from './sso-policy';

type DatabaseHooks = NonNullable<BetterAuthOptions['databaseHooks']>;

/**
 * better-auth's user and account hooks for single sign-on, under the rules of
 * lib/auth/sso-policy.ts (verified emails, one identity per operator, domains). With SSO off they
 * let everything through: nobody reaches a callback then (lib/auth/proxy/route.ts).
 */
export function ssoHooks(
  oidc: ConsoleConfig['oidc'],
  database: ConsoleDatabase,
  deps: ConsoleAuthDependencies,
) {
  /** `auth_time` of an ID token better-auth has verified, as ISO 8601, or null when it has none. */
  const noteIdpAuthentication = (idToken: unknown) => {
    const authTime = typeof idToken === 'string' ? idTokenClaims(idToken).auth_time : undefined;
    if (typeof authTime !== 'number' || !Number.isFinite(authTime)) {
      deps.log(
        'warn',
        'the identity provider sent no auth_time although max_age was asked: this sign-in is no recent authentication for step-up',
      );
      return deps.idpAuthentication?.note(null);
    }
    deps.idpAuthentication?.note(new Date(authTime * 1000).toISOString());
  };
  return {
    user: {
      create: {
        before: async (user, context) => {
          if (!oidc || !isSsoCallback(context?.path)) return;
          const refusal = ssoSignUpRefusal(user, oidc);
          if (refusal) {
            deps.log('warn', `single sign-on refused a new operator: ${refusal}`);
            return false;
          }
        },
      },
    },
    account: {
      create: {
        before: async (account) => {
          if (!oidc || account.providerId !== oidc.providerId) return;
          const operator = await ssoBinding(database, account.userId, oidc.providerId);
          const refusal = operator ? ssoLinkRefusal(operator, oidc) : 'no such operator';
          if (refusal) {
            deps.log('warn', `single sign-on refused to link an identity: ${refusal}`);
            return false;
          }
          noteIdpAuthentication(account.idToken);
        },
      },
      // Every later SSO sign-in stores its new ID token on the account.
      update: {
        before: async (account) => {
          if (oidc && account.providerId === oidc.providerId && 'idToken' in account)
            noteIdpAuthentication(account.idToken);
        },
      },
    },
  } satisfies Pick<DatabaseHooks, 'user' | 'account'>;
}

/** The claims of a JWT (its signature is better-auth's to check: requireIdTokenVerification). */
function idTokenClaims(idToken: string): Record<string, unknown> {
  try {
    const claims: unknown = JSON.parse(
      Buffer.from(idToken.split('.')[1] ?? '', 'base64url').toString('utf8'),
    );
    return typeof claims === 'object' && claims !== null ? (claims as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/** The operator's email and how many SSO identities are bound to them already. */
async function ssoBinding(database: ConsoleDatabase, userId: string, providerId: string) {
  const { db } = database;
  const operator = await db.selectFrom('user').select('email').where('id', '=', userId).executeTakeFirst();
  if (!operator) return null;
  const { count } = await db
    .selectFrom('account')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('userId', '=', userId)
    .where('providerId', '=', providerId)
    .executeTakeFirstOrThrow();
  return { email: operator.email, ssoAccounts: Number(count) };
}
