import type { Metadata } from 'next';
import Link from 'next/link';
import { forbidden, notFound } from 'next/navigation';
import { policyCovers } from '@/lib/approvals/contract';
import { slugOf } from '@/lib/environments';
import { jobReadRefusal } from '@/lib/jobs/job-input';
import { rotationPreview } from '@/lib/jobs/rotation-preview';
import { jobPermission, readJob, toJobView, tokenDownloadRefusal } from '@/lib/jobs/server';
import { can } from '@/lib/roles';
import { pageContext } from '@/lib/server/page-context';
import { decodeParam } from '@/lib/server/route-params';
import { formatUtc } from '@/lib/time';
import { environmentTitle, pageEnvironment } from '../../_components/environment';
import { bulkPath } from '../../_components/paths';
import { JobPanel } from '../_components/job-panel';
import type { TokenDownload } from '../_components/job-panel-state';
import { jobTitle } from '../_components/job-status';

/** The groups a draft rotation lists on its page; the rest are in its CSV. */
const PREVIEW_ROWS = 10;

type JobPageProps = { params: Promise<{ environment: string; id: string }> };

export async function generateMetadata({ params }: JobPageProps): Promise<Metadata> {
  return { title: environmentTitle(await pageEnvironment(params), 'Bulk job') };
}

/** One bulk job: its preview before it runs, its progress while it runs, its result after. */
export default async function JobPage({ params }: JobPageProps) {
  const environment = await pageEnvironment(params);
  const { server, operator } = await pageContext('console:use');
  const slug = slugOf[environment];
  const { database, jobs } = server;
  const progress = await readJob(server, decodeParam((await params).id) ?? notFound());
  if (!progress || progress.job.environment !== environment) notFound();
  // A rotation made from tokens says whose each one is: for those who may rotate, as its routes.
  if (jobReadRefusal(operator.role, progress.job.kind, progress.input)) forbidden();
  const job = toJobView(progress);
  // Before a rotation runs, the groups it will rotate, named (tokens only as fingerprints): which
  // group a pasted token is, so only for those who may rotate.
  const preview =
    job.kind === 'rotate' && job.status === 'draft' && can(operator.role, 'user-groups:rotate')
      ? await rotationPreview(database.db, jobs.vault, progress.job, PREVIEW_ROWS)
      : null;
  const refusal = tokenDownloadRefusal(operator, progress.job);
  const tokenDownload: TokenDownload = !can(operator.role, 'user-groups:reveal-token')
    ? null
    : refusal
      ? { allowed: false, reason: refusal }
      : { allowed: true };
  return (
    <div className="flex flex-col gap-6">
      <div className="flex flex-col gap-1">
        <Link
          href={bulkPath(slug)}
          className="text-sm text-muted-foreground underline-offset-4 hover:underline"
        >
          ← Bulk jobs
        </Link>
        <h1 className="text-2xl font-semibold tracking-tight wrap-anywhere">
          {jobTitle(job.kind, job.source)}
        </h1>
        <p className="text-sm text-muted-foreground">
          Created by {job.createdBy} on {formatUtc(job.createdAt)}
        </p>
      </div>
      <JobPanel
        initial={job}
        maySteer={can(operator.role, jobPermission[job.kind])}
        tokenDownload={tokenDownload}
        preview={preview}
        startNeedsApproval={
          job.kind === 'rotate' && policyCovers(server.config.approvals.rules, 'bulk-rotate', job.environment)
        }
      />
    </div>
  );
}
