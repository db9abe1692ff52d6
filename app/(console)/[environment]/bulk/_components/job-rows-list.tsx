'use client';

import { useId, useRef, useState } from 'react';
import { formErrorMessage } from '@/components/form-errors';
import { Alert } from '@/components/ui/alert';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { routePath } from '@/lib/console-api/define-route';
import { slugOf } from '@/lib/environments';
import { JOB_ROWS_PAGE_DEFAULT, type JobView, type RowFilter, rowFilters } from '@/lib/jobs/contract';
import { jobRoutes } from '@/lib/jobs/routes';
import { useJobRows } from '../_hooks/use-job';
import { GroupIdCell } from './group-id-cell';
import { outcomeLooks, pagerText, rowFilterOptions, rowLinksGroup } from './job-rows-state';
import { ProblemText } from './job-rows-table';

type JobRowsListProps = { job: JobView; heading?: string };

/**
 * Every row of a job, a page at a time, in the file's order: its line, its group (linking to the
 * group's page in the job's environment) and what happened to it, filterable by outcome, with the
 * whole list as CSV. Read again as the job moves.
 */
export function JobRowsList({ job, heading = 'Rows' }: JobRowsListProps) {
  const headingId = useId();
  const showId = useId();
  const [show, setShow] = useState<RowFilter>('all');
  // The positions of the pages before this one: Previous goes back one, without a cursor backwards.
  const [positions, setPositions] = useState<(string | null)[]>([null]);
  const after = positions.at(-1) ?? null;
  const first = (positions.length - 1) * JOB_ROWS_PAGE_DEFAULT + 1;
  const progressKey = `${job.status}:${job.counts.done + job.counts.failed}`;
  const rows = useJobRows(job.id, { after, show, limit: JOB_ROWS_PAGE_DEFAULT }, progressKey);
  const slug = slugOf[job.environment];
  const headingRef = useRef<HTMLHeadingElement>(null);
  const page = rows.data;

  const go = (next: (string | null)[]) => {
    setPositions(next);
    // The new page is the answer to Next or Previous: the focus goes to its heading.
    headingRef.current?.focus();
  };

  return (
    <section aria-labelledby={headingId} className="flex flex-col gap-2" data-testid="job-rows">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <h2 id={headingId} ref={headingRef} tabIndex={-1} className="text-base font-semibold">
          {heading}
        </h2>
        <div className="flex flex-wrap items-center gap-2 text-sm">
          <label htmlFor={showId} className="font-medium">
            Show
          </label>
          <select
            id={showId}
            value={show}
            onChange={(event) => {
              const value = rowFilters.find((filter) => filter === event.target.value) ?? 'all';
              setShow(value);
              setPositions([null]);
            }}
            className="h-9 rounded-md border border-input bg-background px-2 text-sm"
          >
            {rowFilterOptions(job.kind).map((option) => (
              <option key={option.value} value={option.value}>
                {option.label}
              </option>
            ))}
          </select>
        </div>
      </div>
      {rows.isError ? (
        <Alert variant="error" role="alert">
          {formErrorMessage(rows.error, 'The console could not be reached.')}
        </Alert>
      ) : null}
      {page ? (
        <>
          <Table
            label={`${heading}, table`}
            className="min-w-[36rem]"
            data-testid="job-rows-table"
            after={
              page.rows.length === 0 ? (
                <p className="p-3 text-sm text-muted-foreground">{pagerText(first, 0, page.total, show)}</p>
              ) : null
            }
          >
            <TableHeader>
              <TableRow>
                <TableHead>Line</TableHead>
                <TableHead>User group</TableHead>
                <TableHead>Name</TableHead>
                <TableHead>What happened</TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {page.rows.map((row) => {
                const look = outcomeLooks[row.outcome];
                return (
                  <TableRow key={`${row.line}-${row.userGroupId ?? ''}`}>
                    <TableCell label="Line" className="tabular-nums">
                      {row.line}
                    </TableCell>
                    <TableCell label="User group">
                      <GroupIdCell
                        slug={slug}
                        userGroupId={row.userGroupId}
                        linked={rowLinksGroup(job.kind, row)}
                      />
                    </TableCell>
                    <TableCell label="Name" className="wrap-anywhere">
                      {row.name ?? '—'}
                    </TableCell>
                    <TableCell label="What happened">
                      <span className="flex flex-wrap items-baseline gap-x-2 gap-y-1">
                        <Badge variant={look.variant}>{look.label}</Badge>
                        {row.note ? <ProblemText text={row.note} /> : null}
                      </span>
                    </TableCell>
                  </TableRow>
                );
              })}
            </TableBody>
          </Table>
          <nav
            aria-label={`${heading}, pages`}
            className="flex flex-wrap items-center gap-x-4 gap-y-2 text-sm"
          >
            {page.rows.length > 0 ? (
              <p aria-live="polite" data-testid="job-rows-pager">
                {pagerText(first, page.rows.length, page.total, show)}
              </p>
            ) : null}
            {/* Previous and Next only where there is more than one page. */}
            {positions.length > 1 || page.next !== null ? (
              <div className="flex gap-2">
                <Button
                  variant="outline"
                  size="sm"
                  disabled={positions.length === 1}
                  onClick={() => go(positions.slice(0, -1))}
                >
                  Previous
                </Button>
                <Button
                  variant="outline"
                  size="sm"
                  disabled={page.next === null || rows.isPlaceholderData}
                  onClick={() => go([...positions, page.next])}
                >
                  Next
                </Button>
              </div>
            ) : null}
            <a href={routePath(jobRoutes.jobResult, { id: job.id })} className="underline underline-offset-4">
              Every row as CSV
            </a>
          </nav>
        </>
      ) : rows.isPending ? (
        <p className="text-sm text-muted-foreground">Reading the rows…</p>
      ) : null}
    </section>
  );
}
