'use client';

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { ConsoleApiError } from '@/lib/console-api/client';
import { type JobActionBody, type JobView, jobResultRoute, jobsApi } from '@/lib/console-api/jobs';
import { ConfirmAction } from '../../_components/confirm-action';
import { JobStatusBadge } from './job-status';

type JobPanelProps = { initial: JobView; maySteer: boolean; mayDownloadTokens: boolean };

const ended = (status: JobView['status']) => status === 'finished' || status === 'cancelled';

function duration(seconds: number): string {
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  return minutes < 60
    ? `${minutes} min ${seconds % 60} s`
    : `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}

/**
 * A job as it stands, read again every second while it runs (and every few seconds otherwise, so
 * a job someone else starts or pauses shows here too), with the actions its state allows.
 */
export function JobPanel({ initial, maySteer, mayDownloadTokens }: JobPanelProps) {
  const queryClient = useQueryClient();
  const queryKey = ['job', initial.id];
  const { data: job = initial } = useQuery({
    queryKey,
    queryFn: ({ signal }) => jobsApi.get(initial.id, signal),
    initialData: initial,
    refetchInterval: (query) => {
      const status = query.state.data?.status ?? initial.status;
      return status === 'running' ? 1_000 : ended(status) ? false : 3_000;
    },
  });
  const steer = useMutation({
    mutationFn: (body: JobActionBody) => jobsApi.steer(initial.id, body),
    onSuccess: (next) => queryClient.setQueryData(queryKey, next),
  });
  const [confirming, setConfirming] = useState<'start' | 'cancel' | null>(null);
  const [tokensDownloaded, setTokensDownloaded] = useState(false);
  const { counts } = job;
  const settled = counts.done + counts.failed;
  const percent = counts.total === 0 ? 0 : Math.floor((settled / counts.total) * 100);
  const customerRotation = job.environment === 'Customer' && job.kind === 'rotate';

  return (
    <div className="flex flex-col gap-6">
      <section
        aria-labelledby="progress-heading"
        className="flex flex-col gap-3 rounded-lg border border-border bg-card p-4"
      >
        <div className="flex flex-wrap items-center gap-3">
          <h2 id="progress-heading" className="text-base font-semibold">
            {job.status === 'draft' ? 'Preview' : 'Progress'}
          </h2>
          <JobStatusBadge status={job.status} />
        </div>
        {job.status === 'draft' ? (
          <p className="text-sm" data-testid="job-preview">
            {counts.total} {counts.total === 1 ? 'row is' : 'rows are'} ready to run;{' '}
            {counts.invalid === 0
              ? 'no row has a problem.'
              : `${counts.invalid} ${counts.invalid === 1 ? 'row has' : 'rows have'} problems and will not be sent (listed below). Run the good rows, or fix the file and upload it again.`}
          </p>
        ) : (
          <>
            <div
              role="progressbar"
              aria-label="Rows settled"
              aria-valuemin={0}
              aria-valuemax={counts.total}
              aria-valuenow={settled}
              aria-valuetext={`${percent}%: ${settled} of ${counts.total} rows`}
              className="h-3 w-full overflow-hidden rounded-full bg-muted"
            >
              <div className="h-full bg-primary transition-[width]" style={{ width: `${percent}%` }} />
            </div>
            <dl className="grid grid-cols-2 gap-x-6 gap-y-1 text-sm sm:grid-cols-5" data-testid="job-counts">
              <div>
                <dt className="text-muted-foreground">Done</dt>
                <dd className="font-medium tabular-nums">{counts.done}</dd>
              </div>
              <div>
                <dt className="text-muted-foreground">Failed</dt>
                <dd className="font-medium tabular-nums">{counts.failed}</dd>
              </div>
              <div>
                <dt className="text-muted-foreground">Remaining</dt>
                <dd className="font-medium tabular-nums">{counts.pending + counts.sending}</dd>
              </div>
              <div>
                <dt className="text-muted-foreground">Rate</dt>
                <dd className="font-medium tabular-nums">
                  {job.ratePerMinute ? `${job.ratePerMinute}/min` : '—'}
                </dd>
              </div>
              <div>
                <dt className="text-muted-foreground">Time left</dt>
                <dd className="font-medium tabular-nums">
                  {job.secondsLeft !== null ? duration(job.secondsLeft) : '—'}
                </dd>
              </div>
            </dl>
            <p className="sr-only" role="status">
              {ended(job.status) ? `Job ${job.status}: ${counts.done} done, ${counts.failed} failed.` : ''}
            </p>
          </>
        )}
        {job.status === 'paused' && job.pausedReason ? (
          <Alert variant="notice" role="alert">
            {job.pausedReason}
          </Alert>
        ) : null}
        {steer.isError ? (
          <Alert variant="error" role="alert">
            {steer.error instanceof ConsoleApiError
              ? steer.error.message
              : 'The console could not be reached.'}
          </Alert>
        ) : null}
        {maySteer && !ended(job.status) ? (
          <div className="flex flex-wrap gap-2">
            {job.status === 'draft' && counts.total > 0 ? (
              <Button onClick={() => setConfirming('start')} disabled={steer.isPending}>
                Run {counts.total} {counts.total === 1 ? 'row' : 'rows'}
              </Button>
            ) : null}
            {job.status === 'running' ? (
              <Button
                variant="outline"
                onClick={() => steer.mutate({ action: 'pause' })}
                disabled={steer.isPending}
              >
                Pause
              </Button>
            ) : null}
            {job.status === 'paused' ? (
              <Button onClick={() => steer.mutate({ action: 'resume' })} disabled={steer.isPending}>
                Resume
              </Button>
            ) : null}
            <Button variant="outline" onClick={() => setConfirming('cancel')} disabled={steer.isPending}>
              Cancel job
            </Button>
          </div>
        ) : null}
        {ended(job.status) ? (
          <div className="flex flex-col gap-2">
            <div className="flex flex-wrap gap-2">
              <a
                href={jobResultRoute(job.id, false)}
                className="inline-flex h-9 items-center rounded-md border border-border bg-card px-4 text-sm font-medium hover:bg-muted"
              >
                Download the result
              </a>
              {mayDownloadTokens && !job.tokensErasedAt && !tokensDownloaded ? (
                <a
                  href={jobResultRoute(job.id, true)}
                  onClick={() => {
                    setTokensDownloaded(true);
                    // The server erased them with this download: read the job again to say so.
                    setTimeout(() => queryClient.invalidateQueries({ queryKey }), 1_000);
                  }}
                  className="inline-flex h-9 items-center rounded-md bg-primary px-4 text-sm font-medium text-primary-foreground hover:bg-primary/90"
                >
                  Download the result with tokens
                </a>
              ) : null}
            </div>
            <p className="text-sm text-muted-foreground">
              {job.tokensErasedAt || tokensDownloaded
                ? 'The tokens were downloaded and erased from the console. A group’s current token is on its page (Show token).'
                : 'The result with tokens can be downloaded once: the console then erases the tokens it holds. Keep the file safe.'}
            </p>
          </div>
        ) : null}
      </section>

      {job.invalidRows.length > 0 ? (
        <RowTable
          heading={`Rows with problems (${counts.invalid}${counts.invalid > job.invalidRows.length ? `, first ${job.invalidRows.length} shown` : ''})`}
          rows={job.invalidRows.map((row) => ({ line: row.line, id: row.userGroupId, text: row.problems }))}
          testId="invalid-rows"
        />
      ) : null}
      {job.failedRows.length > 0 ? (
        <RowTable
          heading={`Failed rows (${counts.failed}${counts.failed > job.failedRows.length ? `, first ${job.failedRows.length} shown` : ''})`}
          rows={job.failedRows.map((row) => ({ line: row.line, id: row.userGroupId, text: row.error }))}
          testId="failed-rows"
        />
      ) : null}

      <ConfirmAction
        open={confirming === 'start'}
        onOpenChange={(open) => setConfirming(open ? 'start' : null)}
        title={
          job.kind === 'rotate'
            ? `Rotate ${counts.total} tokens in ${job.environment}?`
            : `Get or create ${counts.total} groups in ${job.environment}?`
        }
        description={
          job.kind === 'rotate'
            ? 'Each token is replaced by a new one and stops working at once: every embedded dashboard using it must be given the new token.'
            : 'Groups that do not exist are created; existing groups are returned unchanged.'
        }
        confirmLabel={job.kind === 'rotate' ? 'Rotate tokens' : 'Run the job'}
        typeToConfirm={customerRotation ? String(counts.total) : null}
        destructive={job.kind === 'rotate'}
        onConfirm={() => {
          setConfirming(null);
          steer.mutate({ action: 'start', confirmation: String(counts.total) });
        }}
      />
      <ConfirmAction
        open={confirming === 'cancel'}
        onOpenChange={(open) => setConfirming(open ? 'cancel' : null)}
        title="Cancel this job?"
        description="Rows not yet sent are not sent; what was done stays done, and its result can still be downloaded."
        confirmLabel="Cancel the job"
        typeToConfirm={null}
        destructive
        onConfirm={() => {
          setConfirming(null);
          steer.mutate({ action: 'cancel' });
        }}
      />
    </div>
  );
}

function RowTable({
  heading,
  rows,
  testId,
}: {
  heading: string;
  rows: { line: number; id: string | null; text: string }[];
  testId: string;
}) {
  return (
    <section aria-label={heading} className="flex flex-col gap-2">
      <h2 className="text-base font-semibold">{heading}</h2>
      <section
        className="overflow-x-auto rounded-lg border border-border bg-card"
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a region that scrolls sideways must be reachable from the keyboard (axe scrollable-region-focusable)
        tabIndex={0}
        aria-label={`${heading}, table`}
      >
        <table className="w-full min-w-[32rem] text-sm" data-testid={testId}>
          <thead className="border-b border-border text-left text-xs text-muted-foreground">
            <tr>
              <th scope="col" className="px-3 py-2 font-medium">
                Line
              </th>
              <th scope="col" className="px-3 py-2 font-medium">
                ID
              </th>
              <th scope="col" className="px-3 py-2 font-medium">
                What is wrong
              </th>
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              <tr key={row.line} className="border-b border-border last:border-0">
                <td className="px-3 py-2 tabular-nums">{row.line}</td>
                <td className="px-3 py-2 font-mono wrap-anywhere">{row.id ?? '—'}</td>
                <td className="px-3 py-2">{row.text}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </section>
    </section>
  );
}
