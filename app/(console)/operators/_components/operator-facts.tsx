import { Badge } from '@/components/ui/badge';
import { routePath } from '@/lib/console-api/define-route';
import type { OperatorSummary } from '@/lib/operators/contract';
import { operatorRoutes } from '@/lib/operators/routes';
import { formatUtc } from '@/lib/time';

/** What an audit asks of each operator: second factor, how they sign in, last sign-in. */
export function OperatorFacts({ operator }: { operator: OperatorSummary }) {
  return (
    <div className="text-xs text-muted-foreground" data-testid="operator-row-facts">
      Second factor: {operator.secondFactor} · Signs in with: {operator.signsInWith} · Last sign-in:{' '}
      {operator.lastSignInAt ? formatUtc(operator.lastSignInAt) : 'not yet'}
    </div>
  );
}

/** An operator the company's directory provisioned (SCIM): their role and status change there. */
export function DirectoryBadge({ operator }: { operator: OperatorSummary }) {
  return operator.managedByDirectory ? (
    <Badge data-testid="operator-row-directory">Managed by your directory</Badge>
  ) : null;
}

/** The list as CSV, for an audit (on record when downloaded). */
export function OperatorsExportLink() {
  return (
    <a
      href={routePath(operatorRoutes.exportOperators, {})}
      download
      className="inline-flex h-8 items-center rounded-md border border-border bg-card px-3 text-xs font-medium shadow-xs hover:bg-muted"
    >
      Export CSV
    </a>
  );
}
