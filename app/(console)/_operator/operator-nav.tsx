import { CircleUserRound } from 'lucide-react';
import Link from 'next/link';
import { Badge } from '@/components/ui/badge';
import type { Environment } from '@/lib/environments';
import { can } from '@/lib/roles';
import type { Operator } from '@/lib/server';
import { ApprovalsLink } from './approvals-link';
import { EnvironmentSwitcher } from './environment-switcher';
import { GroupsLink } from './groups-link';
import { SignOutButton } from './sign-out-button';
import { UpstreamStatus } from './upstream-status';

const links = [
  // `phone`: the word a phone shows, where an admin's header must keep to two lines (#43, item 8);
  // the rest of the label stays for screen readers.
  { href: '/audit', label: 'Audit log', phone: 'Audit', permission: 'console:use' },
  { href: '/operators', label: 'Operators', phone: 'Operators', permission: 'operators:manage' },
] as const;

type OperatorNavProps = {
  operator: Operator;
  environments: { environment: Environment; configured: boolean }[];
  /** Requests waiting for this operator's approval; null when they may approve nothing the policy names. */
  approvalsWaiting?: number | null;
};

/**
 * The header's right side: environment, the pages this operator may open, who is signed in, sign-out.
 * On a phone it is compact (the service status as dots, the account and sign-out as icons, their
 * words for screen readers), so that the header and the environment band leave the page the screen.
 */
export function OperatorNav({ operator, environments, approvalsWaiting = null }: OperatorNavProps) {
  return (
    <div className="flex min-w-0 flex-1 flex-wrap items-center justify-end gap-x-3 gap-y-1 sm:gap-x-4">
      <EnvironmentSwitcher environments={environments} />
      <UpstreamStatus />
      <nav aria-label="Console" className="flex flex-wrap items-center gap-x-3 text-sm">
        <GroupsLink className="text-muted-foreground hover:text-foreground" />
        {links
          .filter((link) => can(operator.role, link.permission))
          .map((link) => (
            <Link key={link.href} href={link.href} className="text-muted-foreground hover:text-foreground">
              {link.phone}
              <span className="max-sm:sr-only">{link.label.slice(link.phone.length)}</span>
            </Link>
          ))}
        {approvalsWaiting === null ? null : <ApprovalsLink waiting={approvalsWaiting} />}
      </nav>
      <div className="flex items-center gap-2 text-sm">
        <Link
          href="/account"
          className="flex max-w-48 items-center gap-1 truncate text-muted-foreground hover:text-foreground"
          title={`Account: ${operator.email}`}
        >
          {/* On a phone the header is one or two short lines: an icon, the email for screen readers. */}
          <CircleUserRound aria-hidden="true" className="size-5 shrink-0 sm:hidden" />
          <span data-testid="operator-email" className="sr-only sm:not-sr-only sm:truncate">
            {operator.email}
          </span>
        </Link>
        {/* On a phone the role is said to screen readers only (the account page shows it): room for two lines. */}
        <Badge data-testid="operator-role" className="max-sm:sr-only">
          {operator.role ?? 'no role'}
        </Badge>
        <SignOutButton />
      </div>
    </div>
  );
}
