import type { Metadata } from 'next';
import Link from 'next/link';
import { slugOf } from '@/lib/environments';
import { listJobs } from '@/lib/jobs/store';
import { can } from '@/lib/roles';
import { pageContext } from '@/lib/server/page-context';
import { environmentTitle, pageEnvironment } from '../_components/environment';
import { jobPath } from '../_components/paths';
import { JobStatusBadge, jobTitle } from './_components/job-status';
import { NewJobForms } from './_components/new-job-forms';

type BulkPageProps = { params: Promise<{ environment: string }> };

export async function generateMetadata({ params }: BulkPageProps): Promise<Metadata> {
  return { title: environmentTitle(await pageEnvironment(params), 'Bulk jobs') };
}

/** Bulk work in one environment: start a job, and every job run here, by anyone. */
export default async function BulkPage({ params }: BulkPageProps) {
  const environment = await pageEnvironment(params);
  const { server, operator } = await pageContext('console:read');
  const slug = slugOf[environment];
  const { database } = server;
  const jobs = await listJobs(database.db, environment);
  const mayGetOrCreate = can(operator.role, 'user-groups:get-or-create');
  const mayRotate = can(operator.role, 'user-groups:rotate');
  return (
    <div className="flex flex-col gap-6">
      <h1 className="text-2xl font-semibold tracking-tight">Bulk jobs</h1>
      {mayGetOrCreate || mayRotate ? (
        <NewJobForms environment={environment} mayGetOrCreate={mayGetOrCreate} mayRotate={mayRotate} />
      ) : null}
      <section aria-labelledby="jobs-heading" className="flex flex-col gap-3">
        <h2 id="jobs-heading" className="text-base font-semibold">
          Jobs in {environment}
        </h2>
        {jobs.length === 0 ? (
          <p className="text-sm text-muted-foreground">No bulk job yet.</p>
        ) : (
          <section
            className="overflow-x-auto rounded-lg border border-border bg-card"
            aria-label="Jobs table"
            // biome-ignore lint/a11y/noNoninteractiveTabindex: a region that scrolls sideways must be reachable from the keyboard (axe scrollable-region-focusable)
            tabIndex={0}
          >
            <table className="w-full min-w-[36rem] text-sm">
              <caption className="sr-only">Bulk jobs of {environment}, newest first</caption>
              <thead className="border-b border-border text-left text-xs text-muted-foreground">
                <tr>
                  <th scope="col" className="px-3 py-2 font-medium">
                    Job
                  </th>
                  <th scope="col" className="px-3 py-2 font-medium">
                    Status
                  </th>
                  <th scope="col" className="px-3 py-2 font-medium">
                    Started by
                  </th>
                  <th scope="col" className="px-3 py-2 font-medium">
                    Created
                  </th>
                </tr>
              </thead>
              <tbody>
                {jobs.map((job) => (
                  <tr key={job.id} className="border-b border-border last:border-0">
                    <td className="px-3 py-2">
                      <Link href={jobPath(slug, job.id)} className="underline-offset-4 hover:underline">
                        {jobTitle(job.kind, job.source)}
                      </Link>
                    </td>
                    <td className="px-3 py-2">
                      <JobStatusBadge status={job.status} />
                    </td>
                    <td className="px-3 py-2">{job.created_by}</td>
                    <td className="px-3 py-2 whitespace-nowrap text-muted-foreground">
                      <time dateTime={job.created_at}>{job.created_at.slice(0, 16).replace('T', ' ')}</time>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </section>
        )}
      </section>
    </div>
  );
}
