'use client';

import { useRef, useState } from 'react';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { formErrorMessage } from '@/components/form-errors';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { consoleRoutes, routePath } from '@/lib/console-api/routes';
import { environmentPhrase } from '@/lib/environments';
import { type JobView, jobActionAllowed } from '@/lib/jobs/contract';
import type { RotationPreview } from '@/lib/jobs/rotation-preview';
import { plural } from '@/lib/plural';
import { formatUtc } from '@/lib/time';
import { useUpstreamStatus } from '../../../_hooks/use-upstream-status';
import { useJob, useSteerJob, useTakeJobTokens } from '../_hooks/use-job';
import { JobRowsTable } from './job-rows-table';
import { JobStatusBadge } from './job-status';
import { jobWaiting } from './job-waiting';
import { RotationPreviewTable } from './rotation-preview';

/** Whether this operator may take the job's tokens: null when their role sees no token at all. */
export type TokenDownload = { allowed: true } | { allowed: false; reason: string } | null;

type JobPanelProps = {
  initial: JobView;
  maySteer: boolean;
  tokenDownload: TokenDownload;
  /** A draft rotation's first groups, named. */
  preview?: RotationPreview | null;
};

const ended = (status: JobView['status']) => status === 'finished' || status === 'cancelled';

function duration(seconds: number): string {
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  return minutes < 60
    ? `${minutes} min ${seconds % 60} s`
    : `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}

/** A job as it stands (read again while it may change), with the actions its state allows. */
export function JobPanel({ initial, maySteer, tokenDownload, preview = null }: JobPanelProps) {
  const { data: job = initial } = useJob(initial);
  const steer = useSteerJob(initial.id);
  const takeTokens = useTakeJobTokens(initial.id);
  const [confirming, setConfirming] = useState<'start' | 'cancel' | 'tokens' | null>(null);
  // Not now: the focus goes back to the button that asked (the page re-renders as it polls the job).
  const tokensButton = useRef<HTMLButtonElement>(null);
  const { counts } = job;
  const settled = counts.done + counts.failed;
  const percent = counts.total === 0 ? 0 : Math.floor((settled / counts.total) * 100);
  const inCustomer = job.environment === 'Customer';
  const customerRotation = inCustomer && job.kind === 'rotate';
  const where = environmentPhrase(job.environment);
  // While it runs, the service's status is asked every 10 s: a stalled job says what it waits for.
  const upstream = useUpstreamStatus(job.status === 'running' ? 10_000 : 30_000);
  const waiting = jobWaiting(
    job,
    upstream.data?.environments.find((status) => status.environment === job.environment),
  );

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
            {plural(counts.total, 'row')} {counts.total === 1 ? 'is' : 'are'} ready to run;{' '}
            {counts.invalid === 0
              ? 'no row has a problem.'
              : `${plural(counts.invalid, 'row')} ${counts.invalid === 1 ? 'has' : 'have'} problems and will not be sent (listed below). Run the good rows, or fix the file and upload it again.`}
          </p>
        ) : (
          <>
            <div
              role="progressbar"
              aria-label="Rows settled"
              aria-valuemin={0}
              aria-valuemax={counts.total}
              aria-valuenow={settled}
              aria-valuetext={`${percent}%: ${settled} of ${plural(counts.total, 'row')}`}
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
        {waiting ? (
          <Alert variant="notice" role="status" data-testid="job-waiting">
            {waiting}
          </Alert>
        ) : null}
        {job.status === 'paused' && job.pausedReason ? (
          <Alert variant="notice" role="alert">
            {job.pausedReason}
          </Alert>
        ) : null}
        {steer.isError ? (
          <Alert variant="error" role="alert">
            {formErrorMessage(steer.error, 'The console could not be reached.')}
          </Alert>
        ) : null}
        {maySteer && !ended(job.status) ? (
          <div className="flex flex-wrap gap-2">
            {jobActionAllowed('start', job.status) && counts.total > 0 ? (
              <Button onClick={() => setConfirming('start')} disabled={steer.isPending}>
                Run {plural(counts.total, 'row')}
              </Button>
            ) : null}
            {jobActionAllowed('pause', job.status) ? (
              <Button
                variant="outline"
                onClick={() => steer.mutate({ action: 'pause' })}
                disabled={steer.isPending}
              >
                Pause
              </Button>
            ) : null}
            {jobActionAllowed('resume', job.status) ? (
              <Button onClick={() => steer.mutate({ action: 'resume' })} disabled={steer.isPending}>
                Resume
              </Button>
            ) : null}
            {jobActionAllowed('cancel', job.status) ? (
              <Button variant="outline" onClick={() => setConfirming('cancel')} disabled={steer.isPending}>
                Cancel job
              </Button>
            ) : null}
          </div>
        ) : null}
        {ended(job.status) ? (
          <div className="flex flex-col gap-2">
            <div className="flex flex-wrap gap-2">
              <a
                href={routePath(consoleRoutes.jobResult, { id: job.id })}
                className="inline-flex h-9 items-center rounded-md border border-border bg-card px-4 text-sm font-medium hover:bg-muted"
              >
                Download the result
              </a>
              {tokenDownload?.allowed && !job.tokensErasedAt && !takeTokens.isSuccess && counts.done > 0 ? (
                <Button
                  ref={tokensButton}
                  onClick={() => setConfirming('tokens')}
                  disabled={takeTokens.isPending}
                >
                  Download the result with tokens
                </Button>
              ) : null}
            </div>
            {takeTokens.isError ? (
              <Alert variant="error" role="alert">
                {formErrorMessage(takeTokens.error, 'The console could not be reached.')}
              </Alert>
            ) : null}
            {tokenDownload ? (
              <p className="text-sm text-muted-foreground" data-testid="tokens-note">
                {job.tokensErasedAt
                  ? `The tokens were downloaded${job.tokensTakenBy ? ` by ${job.tokensTakenBy}` : ''} on ${formatUtc(job.tokensErasedAt)} and erased from the console. A group’s current token is on its page (Show token).`
                  : takeTokens.isSuccess
                    ? 'The tokens were downloaded and erased from the console. A group’s current token is on its page (Show token).'
                    : !tokenDownload.allowed
                      ? tokenDownload.reason
                      : counts.done === 0
                        ? 'No row produced a token: there are no tokens to download.'
                        : 'The result with tokens can be downloaded once: the console then erases the tokens it holds. Keep the file safe.'}
              </p>
            ) : null}
          </div>
        ) : null}
      </section>

      {job.status === 'draft' && preview && preview.total > 0 ? (
        <RotationPreviewTable jobId={job.id} environment={job.environment} preview={preview} />
      ) : null}
      {job.invalidRows.length > 0 ? (
        <JobRowsTable
          heading={`Rows with problems (${counts.invalid}${counts.invalid > job.invalidRows.length ? `, first ${job.invalidRows.length} shown` : ''})`}
          rows={job.invalidRows.map((row) => ({ line: row.line, id: row.userGroupId, text: row.problems }))}
          testId="invalid-rows"
        />
      ) : null}
      {job.failedRows.length > 0 ? (
        <JobRowsTable
          heading={`Failed rows (${counts.failed}${counts.failed > job.failedRows.length ? `, first ${job.failedRows.length} shown` : ''})`}
          rows={job.failedRows.map((row) => ({ line: row.line, id: row.userGroupId, text: row.error }))}
          testId="failed-rows"
        />
      ) : null}

      <ConfirmDialog
        open={confirming === 'start'}
        onOpenChange={(open) => setConfirming(open ? 'start' : null)}
        title={
          job.kind === 'rotate'
            ? `Rotate ${plural(counts.total, 'token')} (${job.source}) in ${where}?`
            : `Get or create ${plural(counts.total, 'group')} (${job.source}) in ${where}?`
        }
        description={
          job.kind === 'rotate'
            ? 'Each token is replaced by a new one and stops working at once: every embedded dashboard using it must be given the new token.'
            : 'Groups that do not exist are created; existing groups are returned unchanged.'
        }
        confirmLabel={job.kind === 'rotate' ? 'Rotate tokens' : 'Run the job'}
        typeToConfirm={customerRotation ? { kind: 'count', value: String(counts.total) } : null}
        destructive={job.kind === 'rotate' || inCustomer}
        onConfirm={() => {
          setConfirming(null);
          steer.mutate({ action: 'start', confirmation: String(counts.total) });
        }}
      />
      <ConfirmDialog
        open={confirming === 'cancel'}
        onOpenChange={(open) => setConfirming(open ? 'cancel' : null)}
        title={`Cancel the job ${job.source} in ${where}?`}
        description="Rows not yet sent are not sent; what was done stays done, and its result can still be downloaded."
        confirmLabel="Cancel the job"
        cancelLabel="Keep it running"
        destructive
        onConfirm={() => {
          setConfirming(null);
          steer.mutate({ action: 'cancel' });
        }}
      />
      <ConfirmDialog
        open={confirming === 'tokens'}
        onOpenChange={(open) => setConfirming(open ? 'tokens' : null)}
        title={`Download the only copy of the tokens of ${job.source} in ${where}?`}
        description={`This file is the only copy of ${plural(counts.done, 'token')}: the console erases them as it hands them out, and cannot give them again. Keep the file safe. If the browser loses the download, each group's current token is still on its page (Show token).`}
        confirmLabel="Download and erase"
        cancelLabel="Not now"
        onCloseAutoFocus={(event) => {
          if (!tokensButton.current) return;
          event.preventDefault();
          tokensButton.current.focus();
        }}
        onConfirm={() => {
          setConfirming(null);
          takeTokens.mutate();
        }}
      />
    </div>
  );
}
