/**
 * What a running job that makes no progress is waiting for, when it is its environment's service:
 * "Waiting for the Customer service: not answering since 10:40 UTC, retrying." The runner retries
 * 429, 5xx and no answer in memory and records nothing until a row settles, so this reads two
 * things: the job's rows (none settled in the last minute, some still to send) and the header's
 * probe of the service. Plain module.
 */
import { upstreamCondition } from '@/app/(console)/_operator/upstream-words';
import type { JobView } from '@/lib/jobs/contract';
import type { UpstreamStatus } from '@/lib/upstream-status/contract';

export function jobWaiting(
  job: Pick<JobView, 'status' | 'environment' | 'counts' | 'ratePerMinute'>,
  status: UpstreamStatus | undefined,
): string | null {
  if (job.status !== 'running' || !status) return null;
  if (job.counts.pending + job.counts.sending === 0 || job.ratePerMinute !== null) return null;
  // Answering is not a wait; without a key the runner pauses the job and says why itself.
  if (status.state === 'answering' || status.state === 'not_configured') return null;
  const condition =
    status.state === 'rate_limited' ? 'it is rate limiting the console' : upstreamCondition(status);
  return `Waiting for the ${job.environment} service: ${condition}, retrying.`;
}
