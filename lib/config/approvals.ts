import { z } from 'zod';
import { type ApprovalAction, type ApprovalRule, approvalActions } from '@/lib/approvals/contract';
import { approvingRoles, policyFlaw } from '@/lib/approvals/policy';
import { environments } from '@/lib/environments';
import { ConfigError, optional, type ParsedEnv, positiveInteger } from './env-values';
import type { ssoEnv } from './sso';

export interface ApprovalsConfig {
  /** What needs a second person; empty: nothing does (the console as before). */
  rules: ApprovalRule[];
  /** How long a request waits for a decision. */
  minutes: number;
}

const ruleWords = `${approvalActions.join(', ')}, each optionally :${environments.join(' or :')}`;

/** `delete:Customer` → the rule; null when it names no action the policy knows. */
function parseRule(text: string): ApprovalRule | null {
  const [action, environment, extra] = text.split(':');
  if (extra !== undefined || !approvalActions.includes(action as ApprovalAction)) return null;
  if (environment === undefined) return { action: action as ApprovalAction, environment: null };
  const named = environments.find((each) => each.toLowerCase() === environment.toLowerCase());
  // Granting a role has no environment.
  return named && action !== 'grant-admin' ? { action: action as ApprovalAction, environment: named } : null;
}

/**
 * Two-person approval: CONSOLE_REQUIRE_APPROVAL names the actions that need a second operator
 * (comma-separated: `delete:Customer,bulk-rotate:Customer,grant-admin`), and
 * CONSOLE_APPROVAL_MINUTES how long a request waits (60). `delete` or `bulk-rotate` without
 * `grant-admin` is refused: giving a role that approves is what keeps the second person a person.
 */
export const approvalsEnv = {
  CONSOLE_REQUIRE_APPROVAL: optional(
    z
      .string()
      .transform((text) =>
        text
          .split(',')
          .map((part) => part.trim())
          .filter(Boolean),
      )
      .refine((parts) => parts.every((part) => parseRule(part) !== null), {
        error: `CONSOLE_REQUIRE_APPROVAL must list ${ruleWords}`,
      })
      // Refused at start: a policy one admin can get round is worse than none, as it reads as one.
      .superRefine((parts, context) => {
        const flaw = policyFlaw(parts.map((part) => part.split(':')[0] ?? part));
        if (flaw) context.addIssue({ code: 'custom', message: flaw });
      }),
  ),
  CONSOLE_APPROVAL_MINUTES: positiveInteger('CONSOLE_APPROVAL_MINUTES', 'minutes', 60),
};

/** What the SSO section says of newcomers (lib/config/sso.ts): parseConfig hands the whole environment. */
type SsoNewcomers = Partial<Pick<ParsedEnv<typeof ssoEnv>, 'OIDC_CLIENT_ID' | 'OIDC_NEW_OPERATOR_ROLE'>>;

/**
 * The policy, refused at start where SSO would give a newcomer a role that approves: a second IdP
 * identity of one admin would sign in as an approver no one brought in, so no sponsor stops it.
 */
export function approvalsConfig(settings: ParsedEnv<typeof approvalsEnv> & SsoNewcomers): ApprovalsConfig {
  const rules = (settings.CONSOLE_REQUIRE_APPROVAL ?? []).flatMap((part) => parseRule(part) ?? []);
  const newcomer = settings.OIDC_NEW_OPERATOR_ROLE;
  if (settings.OIDC_CLIENT_ID && newcomer && newcomer !== 'none' && approvingRoles(rules).includes(newcomer))
    throw new ConfigError(
      `CONSOLE_REQUIRE_APPROVAL lets ${newcomer} approve, and OIDC_NEW_OPERATOR_ROLE=${newcomer} gives it to anyone signing in through SSO for the first time: SSO newcomers would approve without a second person; set OIDC_NEW_OPERATOR_ROLE=viewer or none, then raise them through a grant.`,
    );
  return { rules, minutes: settings.CONSOLE_APPROVAL_MINUTES };
}
