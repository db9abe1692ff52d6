import type { Metadata } from 'next';
import { Badge } from '@/components/ui/badge';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { approvingRoles, grantCovered } from '@/lib/approvals/policy';
import { listOperators } from '@/lib/operators/store';
import { plural } from '@/lib/plural';
import { roleDescriptions, roles } from '@/lib/roles';
import { pageContext } from '@/lib/server/page-context';
import { formatExpiry } from '@/lib/time';
import { AddOperatorForm } from './_components/add-operator-form';
import { ApproversShort } from './_components/approvers-short';
import { InvitationActions } from './_components/invitation-actions';
import { OperatorActions } from './_components/operator-actions';
import { DirectoryBadge, OperatorFacts, OperatorsExportLink } from './_components/operator-facts';

export const metadata: Metadata = { title: 'Operators · User Group Console' };

/**
 * Admins only: who may use the console, with which role; invite, send a new link or revoke it,
 * change a role, disable, end sessions.
 */
export default async function OperatorsPage() {
  const { server, operator: admin } = await pageContext('operators:manage');
  const operators = await listOperators(server);
  const now = new Date(server.clock.now()).toISOString();
  // CONSOLE_REQUIRE_APPROVAL's grant-admin: giving a role that can approve asks for a reason and waits.
  const { rules } = server.config.approvals;
  const approvalRoles = approvingRoles(rules).filter((role) => grantCovered(rules, role));
  const mails = server.invitationMailer !== null;

  return (
    <div className="flex flex-col gap-8">
      <div className="flex flex-col gap-1.5">
        <h1 className="text-2xl font-semibold tracking-tight">Operators</h1>
        <ul className="text-sm text-muted-foreground">
          {roles.map((role) => (
            <li key={role}>
              <span className="font-medium text-foreground">{role}</span>: {roleDescriptions[role]}
            </li>
          ))}
        </ul>
      </div>
      <ApproversShort server={server} />
      <Card>
        <CardHeader>
          <CardTitle>Add an operator</CardTitle>
          <CardDescription>
            You get a one-time link to pass on; with it they choose their own password within 72 hours (or
            they sign in through single sign-on, if on). No mail is sent.
          </CardDescription>
        </CardHeader>
        <CardContent>
          <AddOperatorForm approvalRoles={approvalRoles} mails={mails} />
        </CardContent>
      </Card>
      <section aria-labelledby="operators-heading" className="flex flex-col gap-3">
        <div className="flex flex-wrap items-center justify-between gap-2">
          <h2 id="operators-heading" className="text-base font-semibold">
            {plural(operators.length, 'operator')}
          </h2>
          <OperatorsExportLink />
        </div>
        <ul
          className="flex flex-col divide-y divide-border rounded-lg border border-border"
          aria-label="Operators"
        >
          {operators.map((operator) => (
            <li
              key={operator.id}
              className="flex flex-wrap items-start justify-between gap-3 px-4 py-3"
              data-testid="operator-row"
            >
              <div className="min-w-0">
                <div className="flex flex-wrap items-center gap-2">
                  <span className="text-sm font-medium wrap-anywhere">{operator.email}</span>
                  <Badge data-testid="operator-row-role">{operator.role ?? 'no role'}</Badge>
                  {operator.disabled ? <Badge variant="danger">disabled</Badge> : null}
                  <DirectoryBadge operator={operator} />
                  {operator.invitationExpiresAt === null ? null : operator.invitationExpiresAt > now ? (
                    <Badge data-testid="operator-row-invited">
                      Invited (expires {formatExpiry(operator.invitationExpiresAt)})
                    </Badge>
                  ) : (
                    <Badge variant="danger" data-testid="operator-row-invited">
                      Invitation expired
                    </Badge>
                  )}
                </div>
                <div className="text-xs text-muted-foreground">{operator.name}</div>
                <OperatorFacts operator={operator} />
              </div>
              {operator.id === admin.id ? (
                <span className="text-xs text-muted-foreground">you</span>
              ) : operator.invitationExpiresAt !== null ? (
                <InvitationActions operator={operator} approvalRoles={approvalRoles} mails={mails} />
              ) : (
                <OperatorActions operator={operator} approvalRoles={approvalRoles} />
              )}
            </li>
          ))}
        </ul>
      </section>
    </div>
  );
}
