/**
 * What a bulk job's status allows and what its panel says, as pure functions of the job, the
 * operator's rights and whether the tokens were just taken: the panel (job-panel.tsx) only renders
 * them and sends the calls.
 */
import type { TypeToConfirm } from '@/components/confirm-dialog.utils';
import { environmentPhrase } from '@/lib/environments';
import { fixAdvice, type JobView, jobActionAllowed } from '@/lib/jobs/contract';
import { plural } from '@/lib/plural';
import { formatUtc } from '@/lib/time';

/** Whether this operator may take the job's tokens: null when their role sees no token at all. */
export type TokenDownload = { allowed: true } | { allowed: false; reason: string } | null;

type Counts = JobView['counts'];

/** A finished or cancelled job moves no more: it offers its result instead of its controls. */
export const jobEnded = (status: JobView['status']) => status === 'finished' || status === 'cancelled';

/** While a job runs its service is asked every 10 s, so a stalled job says what it waits for. */
export const upstreamPollMs = (status: JobView['status']) => (status === 'running' ? 10_000 : 30_000);

export function durationText(seconds: number): string {
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  return minutes < 60
    ? `${minutes} min ${seconds % 60} s`
    : `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}

/**
 * A draft's one sentence: how many rows will run and how many will not, and what to do about those,
 * in the words of what the person gave (a file, pasted tokens, groups chosen in the directory).
 */
export function draftSummary(
  counts: Pick<Counts, 'total' | 'invalid'>,
  job: Pick<JobView, 'kind' | 'input'> = { kind: 'get-or-create', input: 'groups-file' },
): string {
  const { total, invalid } = counts;
  const ready = `${plural(total, 'row')} ${total === 1 ? 'is' : 'are'} ready to run;`;
  return invalid === 0
    ? `${ready} no row has a problem.`
    : `${ready} ${plural(invalid, 'row')} ${invalid === 1 ? 'has' : 'have'} problems and will not be sent (listed below). Run the good rows, or ${fixAdvice(job.kind, job.input)}.`;
}

/** The progress bar's rows settled (done or failed) of the total, and how a screen reader says it. */
export function jobProgress(counts: Pick<Counts, 'total' | 'done' | 'failed'>) {
  const settled = counts.done + counts.failed;
  const percent = counts.total === 0 ? 0 : Math.floor((settled / counts.total) * 100);
  return { settled, percent, valueText: `${percent}%: ${settled} of ${plural(counts.total, 'row')}` };
}

/** The figures under the progress bar, in order; — when not known yet. */
export function jobFigures(
  job: Pick<JobView, 'counts' | 'ratePerMinute' | 'secondsLeft'>,
): { label: string; value: string }[] {
  const { counts } = job;
  return [
    { label: 'Done', value: String(counts.done) },
    { label: 'Failed', value: String(counts.failed) },
    { label: 'Remaining', value: String(counts.pending + counts.sending) },
    { label: 'Rate', value: job.ratePerMinute ? `${job.ratePerMinute}/min` : '—' },
    { label: 'Time left', value: job.secondsLeft !== null ? durationText(job.secondsLeft) : '—' },
  ];
}

/** A job cancelled before it ever started: nothing of it was sent. */
export const cancelledUnstarted = (job: Pick<JobView, 'status' | 'startedAt'>) =>
  job.status === 'cancelled' && job.startedAt === null;

/** What the live region says: only when the job has ended. */
export function endedAnnouncement(job: Pick<JobView, 'status' | 'counts' | 'startedAt'>): string {
  if (cancelledUnstarted(job)) return 'Job cancelled before it started: nothing was sent.';
  return jobEnded(job.status)
    ? `Job ${job.status}: ${job.counts.done} done, ${job.counts.failed} failed.`
    : '';
}

/**
 * The buttons that steer the job, as its status allows (lib/jobs/contract.ts's jobTransitions, the
 * server's rule too): none for a role that may not steer or once the job has ended; Run only with
 * rows to run.
 */
export function jobControls(
  job: Pick<JobView, 'status' | 'counts'>,
  maySteer: boolean,
): { start: boolean; pause: boolean; resume: boolean; cancel: boolean } | null {
  if (!maySteer || jobEnded(job.status)) return null;
  return {
    start: jobActionAllowed('start', job.status) && job.counts.total > 0,
    pause: jobActionAllowed('pause', job.status),
    resume: jobActionAllowed('resume', job.status),
    cancel: jobActionAllowed('cancel', job.status),
  };
}

export const runLabel = (counts: Pick<Counts, 'total'>) => `Run ${plural(counts.total, 'row')}`;

type TokensView = Pick<JobView, 'status' | 'counts' | 'tokensErasedAt' | 'tokensTakenBy'>;

/**
 * "Download the result with tokens" is offered once: to a role allowed, for an ended job whose rows
 * made tokens, until they are taken (here, `takenNow`, or before: `tokensErasedAt`).
 */
export function tokensDownloadOffered(
  job: TokensView,
  tokenDownload: TokenDownload,
  takenNow: boolean,
): boolean {
  return (
    jobEnded(job.status) &&
    tokenDownload?.allowed === true &&
    !job.tokensErasedAt &&
    !takenNow &&
    job.counts.done > 0
  );
}

/** The line under the downloads about the tokens; null for a role that sees no token. */
export function tokensNote(job: TokensView, tokenDownload: TokenDownload, takenNow: boolean): string | null {
  if (!tokenDownload) return null;
  if (job.tokensErasedAt)
    return `The tokens were downloaded${job.tokensTakenBy ? ` by ${job.tokensTakenBy}` : ''} on ${formatUtc(job.tokensErasedAt)} and erased from the console. A group’s current token is on its page (Show token).`;
  if (takenNow)
    return 'The tokens were downloaded and erased from the console. A group’s current token is on its page (Show token).';
  if (!tokenDownload.allowed) return tokenDownload.reason;
  return job.counts.done === 0
    ? 'No row produced a token: there are no tokens to download.'
    : 'The result with tokens can be downloaded once: the console then erases the tokens it holds. Keep the file safe.';
}

/** A table of rows heading: its count, and how many are listed when the page holds only the first. */
export const rowsHeading = (title: string, count: number, listed: number) =>
  `${title} (${count}${count > listed ? `, first ${listed} shown` : ''})`;

type ConfirmationWords = {
  title: string;
  description: string;
  confirmLabel: string;
  cancelLabel?: string;
  typeToConfirm?: TypeToConfirm | null;
  destructive?: boolean;
};

type ConfirmedJob = Pick<JobView, 'kind' | 'environment' | 'source' | 'counts' | 'status'>;

/**
 * Run: a rotation is destructive anywhere and, in Customer (production), asks for the number of
 * tokens typed; any job in Customer is destructive.
 */
export function startConfirmation(job: ConfirmedJob): ConfirmationWords {
  const where = environmentPhrase(job.environment);
  const { total } = job.counts;
  const rotation = job.kind === 'rotate';
  const inCustomer = job.environment === 'Customer';
  return {
    title: rotation
      ? `Rotate ${plural(total, 'token')} (${job.source}) in ${where}?`
      : `Get or create ${plural(total, 'group')} (${job.source}) in ${where}?`,
    description: rotation
      ? 'Each token is replaced by a new one and stops working at once: every embedded dashboard using it must be given the new token.'
      : 'Groups that do not exist are created; existing groups are returned unchanged.',
    confirmLabel: rotation ? 'Rotate tokens' : 'Run the job',
    typeToConfirm: inCustomer && rotation ? { kind: 'count', value: String(total) } : null,
    destructive: rotation || inCustomer,
  };
}

/** Cancel: a draft will never start (nothing was sent); a job under way stops where it is. */
export function cancelConfirmation(job: ConfirmedJob): ConfirmationWords {
  const title = `Cancel the job ${job.source} in ${environmentPhrase(job.environment)}?`;
  if (job.status === 'draft')
    return {
      title,
      description: `The job will not start: none of its ${plural(job.counts.total, 'row')} is sent. To run them later, check the list again as a new job.`,
      confirmLabel: 'Cancel the job',
      cancelLabel: 'Keep the draft',
      destructive: true,
    };
  return {
    title,
    description:
      'Rows not yet sent are not sent; what was done stays done, and its result can still be downloaded.',
    confirmLabel: 'Cancel the job',
    cancelLabel: job.status === 'paused' ? 'Keep it paused' : 'Keep it running',
    destructive: true,
  };
}

export const tokensConfirmation = (job: ConfirmedJob): ConfirmationWords => ({
  title: `Download the only copy of the tokens of ${job.source} in ${environmentPhrase(job.environment)}?`,
  description: `This file is the only copy of ${plural(job.counts.done, 'token')}: the console erases them as it hands them out, and cannot give them again. Keep the file safe. If the browser loses the download, each group's current token is still on its page (Show token).`,
  confirmLabel: 'Download and erase',
  cancelLabel: 'Not now',
});
