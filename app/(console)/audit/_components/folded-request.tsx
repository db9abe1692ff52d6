'use client';

import { ChevronRight } from 'lucide-react';
import Link from 'next/link';
import { useId, useState } from 'react';
import { jobPath } from '@/app/(console)/[environment]/_components/paths';
import { Badge } from '@/components/ui/badge';
import { cn } from '@/components/ui/cn';
import { TableBody, TableCell, TableRow } from '@/components/ui/table';
import type { AuditItem } from '@/lib/audit/listing';
import { slugOf } from '@/lib/environments';
import { plural } from '@/lib/plural';
import { utcSecond } from '@/lib/time';
import { summariseFold } from './audit-fold';
import { AuditRow, auditColumns, environmentOf, Muted } from './audit-row';

type FoldedRequestProps = { item: Extract<AuditItem, { kind: 'request' }> };

/**
 * The entries of one request (a bulk job's rows) as one line, "bulk rotate: 300 rows (298
 * success, 2 failed)", whose button shows them below it (aria-expanded, as a disclosure).
 */
export function FoldedRequest({ item }: FoldedRequestProps) {
  const [open, setOpen] = useState(false);
  const rowsId = useId();
  const summary = summariseFold(item);
  const newest = item.events[0];
  const environment = newest ? environmentOf(newest) : null;
  const hidden = item.entries - item.events.length;
  return (
    <>
      <TableBody>
        <TableRow className="border-t border-b-0 border-border align-top" data-testid="audit-fold">
          <TableCell label={auditColumns.time} className="font-mono text-xs whitespace-nowrap">
            {newest ? utcSecond(newest.at) : null}
          </TableCell>
          <TableCell label={auditColumns.operator} className="break-words">
            {newest?.operator_email ?? <Muted>unknown</Muted>}
          </TableCell>
          <TableCell label={auditColumns.action}>
            <button
              type="button"
              aria-expanded={open}
              aria-controls={rowsId}
              onClick={() => setOpen((value) => !value)}
              className="inline-flex items-start gap-1 rounded-sm text-left font-medium underline-offset-4 hover:underline outline-none focus-visible:ring-2 focus-visible:ring-ring focus-visible:ring-offset-2 focus-visible:ring-offset-background"
            >
              <ChevronRight
                aria-hidden="true"
                className={cn('mt-0.5 size-4 shrink-0 transition-transform', open && 'rotate-90')}
              />
              {summary.title}
            </button>
          </TableCell>
          <TableCell label={auditColumns.group}>
            {summary.bulk && environment ? (
              <Link
                href={jobPath(slugOf[environment], item.requestId)}
                className="text-xs underline underline-offset-4"
              >
                Bulk job {item.requestId.slice(0, 8)}
              </Link>
            ) : (
              <Muted>—</Muted>
            )}
            {environment ? <div className="text-xs text-muted-foreground">in {environment}</div> : null}
          </TableCell>
          <TableCell label={auditColumns.outcome}>
            <Badge variant={summary.failed === 0 ? 'success' : 'danger'}>
              {summary.failed === 0 ? 'success' : `${summary.failed} failed`}
            </Badge>
          </TableCell>
          <TableCell label={auditColumns.token} />
          <TableCell label={auditColumns.request} className="font-mono text-xs text-muted-foreground">
            {item.requestId.slice(0, 8)}
          </TableCell>
        </TableRow>
      </TableBody>
      <TableBody id={rowsId} hidden={!open}>
        {item.events.map((event) => (
          <AuditRow key={event.id} event={event} nested />
        ))}
        {hidden > 0 ? (
          <TableRow className="border-t border-b-0 border-border bg-muted/40">
            <TableCell colSpan={7} className="pl-8 text-xs text-muted-foreground">
              The newest {item.events.length} of {plural(item.entries, 'entry')} are shown
              {summary.bulk && environment
                ? ': the job’s page lists its failed rows, and its result has every row.'
                : '.'}
            </TableCell>
          </TableRow>
        ) : null}
      </TableBody>
    </>
  );
}
