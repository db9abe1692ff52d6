'use client';

import dynamic from 'next/dynamic';
import { useRef, useState } from 'react';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { formErrorMessage } from '@/components/form-errors';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { useRefocusWhenDropped } from '@/components/use-refocus-when-dropped';
import { isWaiting } from '@/lib/browser-client/console-client';
import { routePath } from '@/lib/console-api/define-route';
import type { JobView } from '@/lib/jobs/contract';
import type { RotationPreview } from '@/lib/jobs/rotation-preview';
import { jobRoutes } from '@/lib/jobs/routes';
import { useUpstreamStatus } from '../../../_hooks/use-upstream-status';
import { useJob, useSteerJob, useTakeJobTokens } from '../_hooks/use-job';
import {
  cancelConfirmation,
  cancelledUnstarted,
  draftSummary,
  endedAnnouncement,
  jobControls,
  jobEnded,
  jobFigures,
  jobProgress,
  rowsHeading,
  runLabel,
  startConfirmation,
  type TokenDownload,
  tokensConfirmation,
  tokensDownloadOffered,
  tokensNote,
  upstreamPollMs,
} from './job-panel-state';
import { JobRowsTable } from './job-rows-table';
import { JobStatusBadge } from './job-status';
import { jobWaiting } from './job-waiting';
import { RotationPreviewTable } from './rotation-preview';

/** Only where the policy makes a start wait for another operator: loaded then. */
// The job's rows list: below the job's status and actions, fetched as the page shows it (the
// page's budget, scripts/page-weight.ts).
const JobRowsList = dynamic(() => import('./job-rows-list').then((module) => module.JobRowsList));
const ApprovalWaiting = dynamic(() =>
  import('@/components/approval-waiting').then((module) => module.ApprovalWaiting),
);

type JobPanelProps = {
  initial: JobView;
  maySteer: boolean;
  tokenDownload: TokenDownload;
  /** A draft rotation's first groups, named. */
  preview?: RotationPreview | null;
  /** CONSOLE_REQUIRE_APPROVAL names starting this job: it asks for a reason and waits for another operator. */
  startNeedsApproval?: boolean;
};

/** A job as it stands (read again while it may change), with the actions its state allows. */
export function JobPanel({
  initial,
  maySteer,
  tokenDownload,
  preview = null,
  startNeedsApproval = false,
}: JobPanelProps) {
  const [reason, setReason] = useState('');
  const { data: job = initial } = useJob(initial);
  const steer = useSteerJob(initial.id);
  const takeTokens = useTakeJobTokens(initial.id);
  const [confirming, setConfirming] = useState<'start' | 'cancel' | 'tokens' | null>(null);
  // Not now: the focus goes back to the button that asked (the page re-renders as it polls the job).
  const tokensButton = useRef<HTMLButtonElement>(null);
  const { counts } = job;
  const progress = jobProgress(counts);
  const controls = jobControls(job, maySteer);
  const note = tokensNote(job, tokenDownload, takeTokens.isSuccess);
  const upstream = useUpstreamStatus(upstreamPollMs(job.status));
  const waiting = jobWaiting(
    job,
    upstream.data?.environments.find((status) => status.environment === job.environment),
  );
  // A control that changed the job (Run, Pause, Resume, Cancel) goes with the status it changed:
  // when the focus fell to the page's top with it, it moves to the job's progress, the answer.
  const progressHeading = useRef<HTMLHeadingElement>(null);
  // The tokens' download too: its button goes once they are taken.
  useRefocusWhenDropped(`${job.status}:${takeTokens.isSuccess}`, () => progressHeading.current);

  const dialog = (which: 'start' | 'cancel' | 'tokens') => ({
    open: confirming === which,
    onOpenChange: (open: boolean) => setConfirming(open ? which : null),
  });

  return (
    <div className="flex flex-col gap-6">
      <section
        aria-labelledby="progress-heading"
        className="flex flex-col gap-3 rounded-lg border border-border bg-card p-4"
      >
        <div className="flex flex-wrap items-center gap-3">
          <h2 id="progress-heading" ref={progressHeading} tabIndex={-1} className="text-base font-semibold">
            {job.status === 'draft' ? 'Preview' : 'Progress'}
          </h2>
          <JobStatusBadge status={job.status} />
        </div>
        {job.status === 'draft' ? (
          <p className="text-sm" data-testid="job-preview">
            {draftSummary(counts, job)}
          </p>
        ) : (
          <>
            <div
              role="progressbar"
              aria-label="Rows settled"
              aria-valuemin={0}
              aria-valuemax={counts.total}
              aria-valuenow={progress.settled}
              aria-valuetext={progress.valueText}
              className="h-3 w-full overflow-hidden rounded-full bg-muted"
            >
              <div
                className="h-full bg-primary transition-[width]"
                style={{ width: `${progress.percent}%` }}
              />
            </div>
            <dl className="grid grid-cols-2 gap-x-6 gap-y-1 text-sm sm:grid-cols-5" data-testid="job-counts">
              {jobFigures(job).map((figure) => (
                <div key={figure.label}>
                  <dt className="text-muted-foreground">{figure.label}</dt>
                  <dd className="font-medium tabular-nums">{figure.value}</dd>
                </div>
              ))}
            </dl>
            {cancelledUnstarted(job) ? (
              <p className="text-sm" data-testid="job-cancelled-unstarted">
                Cancelled before it started: nothing was sent.
              </p>
            ) : null}
            <p className="sr-only" role="status">
              {endedAnnouncement(job)}
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
        {isWaiting(steer.data) ? (
          <ApprovalWaiting approvalId={steer.data.waiting.approvalId} />
        ) : steer.isError ? (
          <Alert variant="error" role="alert">
            {formErrorMessage(steer.error, 'The console could not be reached.')}
          </Alert>
        ) : null}
        {controls ? (
          <div className="flex flex-wrap gap-2">
            {controls.start ? (
              <Button onClick={() => setConfirming('start')} disabled={steer.isPending}>
                {runLabel(counts)}
              </Button>
            ) : null}
            {controls.pause ? (
              <Button
                variant="outline"
                onClick={() => steer.mutate({ action: 'pause' })}
                disabled={steer.isPending}
              >
                Pause
              </Button>
            ) : null}
            {controls.resume ? (
              <Button onClick={() => steer.mutate({ action: 'resume' })} disabled={steer.isPending}>
                Resume
              </Button>
            ) : null}
            {controls.cancel ? (
              <Button variant="outline" onClick={() => setConfirming('cancel')} disabled={steer.isPending}>
                Cancel job
              </Button>
            ) : null}
          </div>
        ) : null}
        {jobEnded(job.status) ? (
          <div className="flex flex-col gap-2">
            <div className="flex flex-wrap gap-2">
              <a
                href={routePath(jobRoutes.jobResult, { id: job.id })}
                className="inline-flex h-9 items-center rounded-md border border-border bg-card px-4 text-sm font-medium hover:bg-muted"
              >
                Download the result
              </a>
              {tokensDownloadOffered(job, tokenDownload, takeTokens.isSuccess) ? (
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
            {note !== null ? (
              <p className="text-sm text-muted-foreground" data-testid="tokens-note">
                {note}
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
          heading={rowsHeading('Rows with problems', counts.invalid, job.invalidRows.length)}
          rows={job.invalidRows.map((row) => ({ line: row.line, id: row.userGroupId, text: row.problems }))}
          testId="invalid-rows"
        />
      ) : null}
      {job.failedRows.length > 0 ? (
        <JobRowsTable
          heading={rowsHeading('Failed rows', counts.failed, job.failedRows.length)}
          rows={job.failedRows.map((row) => ({ line: row.line, id: row.userGroupId, text: row.error }))}
          testId="failed-rows"
        />
      ) : null}
      {/* Which group each row is and what happened to it: before a get-or-create runs (its good
          rows as well as its bad), and once any job has started (a rotation's preview, then). */}
      {job.kind === 'get-or-create' || job.status !== 'draft' ? (
        <JobRowsList
          job={job}
          heading={job.kind === 'rotate' ? 'Groups of this rotation' : 'Groups of this job'}
        />
      ) : null}

      <ConfirmDialog
        {...dialog('start')}
        {...startConfirmation(job)}
        {...(startNeedsApproval
          ? {
              confirmLabel: 'Ask for approval',
              reason: { label: 'Reason (another operator reads it)', value: reason, onChange: setReason },
            }
          : {})}
        onConfirm={() => {
          setConfirming(null);
          const start = { action: 'start' as const, confirmation: String(counts.total) };
          steer.mutate(startNeedsApproval ? Object.assign(start, { approvalReason: reason }) : start);
        }}
      />
      <ConfirmDialog
        {...dialog('cancel')}
        {...cancelConfirmation(job)}
        onConfirm={() => {
          setConfirming(null);
          steer.mutate({ action: 'cancel' });
        }}
      />
      <ConfirmDialog
        {...dialog('tokens')}
        {...tokensConfirmation(job)}
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
