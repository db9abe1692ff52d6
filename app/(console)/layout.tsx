import type { ReactNode } from 'react';
import { ConsoleMark } from '@/components/console-mark';
import { FocusKeeper } from '@/components/focus-keeper';
import { LandingFocus } from '@/components/landing-focus';
import { Providers } from '@/components/providers';
import { approvalPermission } from '@/lib/approvals/contract';
import { listApprovals } from '@/lib/approvals/store';
import { environments } from '@/lib/environments';
import { passkeysWorkAt } from '@/lib/passkeys/store';
import { can } from '@/lib/roles';
import { pageContext } from '@/lib/server/page-context';
import { stepUpRemainingMs } from '@/lib/two-factor/step-up';
import { OperatorNav } from './_operator/operator-nav';
import { StepUpPrompt } from './_operator/step-up-prompt';

/**
 * The signed-in console: a header with the product name, then the page. Without a session it sends
 * the person to sign in; each page checks the role it needs on its own as well.
 */
export default async function ConsoleLayout({ children }: { children: ReactNode }) {
  const { server, operator } = await pageContext('console:use');
  const { upstreams, auth, oidc, consoleUrl } = server.config;
  const environmentStates = environments.map((environment) => ({
    environment,
    configured: upstreams[environment] !== null,
  }));
  // The Approvals page, for those who may approve something the policy names (and what they asked).
  const mayApprove = server.config.approvals.rules.some((rule) =>
    can(operator.role, approvalPermission[rule.action]),
  );
  const approvalsWaiting = mayApprove
    ? (await listApprovals(server.database.db, operator, new Date(server.clock.now()))).waiting
    : null;
  const shell = (
    <div className="flex min-h-dvh flex-col">
      <a
        href="#main"
        className="sr-only rounded-md bg-card px-3 py-2 text-sm font-medium focus:not-sr-only focus:absolute focus:top-3 focus:left-3 focus:z-50"
      >
        Skip to content
      </a>
      <header className="border-b border-border bg-card">
        <div className="mx-auto flex min-h-14 w-full max-w-6xl flex-wrap items-center gap-2.5 px-4 py-2 sm:px-6">
          <ConsoleMark nameClassName="max-sm:sr-only" />
          <OperatorNav
            operator={operator}
            environments={environmentStates}
            approvalsWaiting={approvalsWaiting}
          />
        </div>
      </header>
      <LandingFocus />
      <FocusKeeper />
      <main id="main" className="mx-auto w-full max-w-6xl flex-1 px-4 py-8 sm:px-6 sm:py-10">
        {children}
      </main>
      <StepUpPrompt
        minutes={Math.round(auth.stepUpSeconds / 60)}
        confirmedForMs={stepUpRemainingMs(operator, server.config, server.clock)}
        hasAuthenticator={operator.twoFactorEnabled}
        hasPasskey={operator.passkeys > 0 && passkeysWorkAt(consoleUrl)}
        sso={oidc && operator.session.signInMethod === 'sso' ? { name: oidc.displayName } : null}
      />
    </div>
  );
  // The query client is here, not in the root layout: the empty page would carry it (app/layout.tsx).
  return <Providers>{shell}</Providers>;
}
