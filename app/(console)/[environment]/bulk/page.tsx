import type { Metadata } from 'next';
import Link from 'next/link';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { slugOf } from '@/lib/environments';
import { listJobs } from '@/lib/jobs/store';
import { can } from '@/lib/roles';
import { pageContext } from '@/lib/server/page-context';
import { utcMinute } from '@/lib/time';
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
  const { server, operator } = await pageContext('console:use');
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
          <Table label="Jobs table" className="min-w-[36rem]">
            <caption className="sr-only">Bulk jobs of {environment}, newest first</caption>
            <TableHeader>
              <TableRow>
                <TableHead>Job</TableHead>
                <TableHead>Status</TableHead>
                <TableHead>Started by</TableHead>
                <TableHead>Created</TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {jobs.map((job) => (
                <TableRow key={job.id}>
                  <TableCell label="Job">
                    <Link href={jobPath(slug, job.id)} className="underline-offset-4 hover:underline">
                      {jobTitle(job.kind, job.source)}
                    </Link>
                  </TableCell>
                  <TableCell label="Status">
                    <JobStatusBadge status={job.status} />
                  </TableCell>
                  <TableCell label="Started by">{job.created_by}</TableCell>
                  <TableCell label="Created" className="whitespace-nowrap text-muted-foreground">
                    <time dateTime={job.created_at}>{utcMinute(job.created_at)}</time>
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        )}
      </section>
    </div>
  );
}
