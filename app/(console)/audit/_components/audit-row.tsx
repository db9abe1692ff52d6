import Link from 'next/link';
import type { ReactNode } from 'react';
import { groupPath, jobPath } from '@/app/(console)/[environment]/_components/paths';
import { Badge } from '@/components/ui/badge';
import { cn } from '@/components/ui/cn';
import { readableId } from '@/components/ui/identifier';
import { TableCell, TableRow } from '@/components/ui/table';
import type { AuditEvent } from '@/lib/audit/store';
import { environments, slugOf } from '@/lib/environments';
import { utcSecond } from '@/lib/time';

/** The audit table's columns: its header row, and each cell's label when rows are stacked (a phone). */
export const auditColumns = {
  time: 'Time (UTC)',
  operator: 'Operator',
  action: 'Action',
  group: 'User group',
  outcome: 'Outcome',
  token: 'Token',
  request: 'Request',
} as const;

/** The environment an entry names, when it is one the console has (its group page lives there). */
export function environmentOf(event: Pick<AuditEvent, 'environment'>) {
  return environments.find((environment) => environment === event.environment) ?? null;
}

/**
 * One audit entry as a table row; its group links to the group's page in its environment. Used by
 * the audit page, a group's history and, indented, inside a folded bulk job.
 */
export function AuditRow({ event, nested = false }: { event: AuditEvent; nested?: boolean }) {
  const environment = environmentOf(event);
  return (
    <TableRow
      className={cn('border-t border-b-0 border-border align-top', nested && 'bg-muted/40')}
      data-testid="audit-row"
    >
      <TableCell
        label={auditColumns.time}
        className={cn('font-mono text-xs whitespace-nowrap', nested && 'pl-8')}
      >
        {utcSecond(event.at)}
      </TableCell>
      <TableCell label={auditColumns.operator} className="break-words">
        {event.operator_email ?? <Muted>unknown</Muted>}
      </TableCell>
      <TableCell label={auditColumns.action} className="whitespace-nowrap">
        {event.action}
        {event.detail ? (
          // The action stays on one line; a detail (a bulk job's source, an operator's email) wraps
          // within 18rem between words, an email kept whole (the column widens for it rather than
          // breaking "alice@exa" / "mple.com"), or its length would take every other column's width.
          <div
            data-testid="audit-detail"
            className="max-w-72 text-xs whitespace-normal break-words text-muted-foreground"
          >
            {event.detail}
          </div>
        ) : null}
      </TableCell>
      <TableCell label={auditColumns.group}>
        {event.user_group_id ? (
          environment ? (
            <Link
              href={groupPath(slugOf[environment], event.user_group_id)}
              title={event.user_group_id}
              className={cn(readableId, 'font-mono text-xs underline underline-offset-4')}
            >
              {event.user_group_id}
            </Link>
          ) : (
            <code title={event.user_group_id} className={cn(readableId, 'font-mono text-xs')}>
              {event.user_group_id}
            </code>
          )
        ) : event.action.startsWith('bulk.') && environment ? (
          // A job's own line (run, pause, cancel) is filed under the job's id: it links to the job.
          <Link
            href={jobPath(slugOf[environment], event.request_id)}
            className="text-xs underline underline-offset-4"
          >
            Bulk job {event.request_id.slice(0, 8)}
          </Link>
        ) : (
          <Muted>—</Muted>
        )}
        {event.user_group_name ? (
          <div className="text-xs text-muted-foreground wrap-anywhere">{event.user_group_name}</div>
        ) : null}
        {event.environment ? (
          <div className="text-xs text-muted-foreground">in {event.environment}</div>
        ) : null}
      </TableCell>
      <TableCell label={auditColumns.outcome}>
        <Badge variant={event.outcome === 'success' ? 'success' : 'danger'}>{event.outcome}</Badge>
      </TableCell>
      <TableCell label={auditColumns.token} className="font-mono text-xs">
        {event.token_fingerprint ?? ''}
        {event.previous_token_fingerprint ? (
          <div className="text-muted-foreground" title="Fingerprint of the token presented">
            was {event.previous_token_fingerprint}
          </div>
        ) : null}
      </TableCell>
      <TableCell label={auditColumns.request} className="font-mono text-xs text-muted-foreground">
        {event.request_id.slice(0, 8)}
      </TableCell>
    </TableRow>
  );
}

export function Muted({ children }: { children: ReactNode }) {
  return <span className="text-muted-foreground">{children}</span>;
}
