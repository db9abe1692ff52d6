import { consoleRoutes } from '@/lib/console-api/routes';
import { jobRowsQuerySchema } from '@/lib/jobs/contract';
import { jobRowsPage } from '@/lib/jobs/job-rows';
import { jobRoute } from '@/lib/jobs/server';
import { invalidRequest } from '@/lib/server/errors';
import { consoleRoute } from '@/lib/server/route';
import { fieldErrors } from '@/lib/validation/field-errors';

/**
 * A page of a job's rows: each row's group and what happened to it, in the file's order, paged
 * after the last row's position. Reading, not on record; a rotation made from tokens only for
 * those who may rotate (jobRoute's load refuses the others).
 */
export const GET = consoleRoute(
  { ...consoleRoutes.jobRows, ...jobRoute },
  async ({ request, subject, server }) => {
    const params = new URL(request.url).searchParams;
    const record: Record<string, string | undefined> = {};
    // Repeated keys keep the first value, as the directory's and the audit's queries do.
    for (const key of params.keys()) record[key] ??= params.get(key) ?? undefined;
    const parsed = jobRowsQuerySchema.safeParse(record);
    if (!parsed.success) throw invalidRequest(fieldErrors(parsed.error), 'rows asked for');
    return jobRowsPage(server.database.db, subject.job, parsed.data);
  },
);
