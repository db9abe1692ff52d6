import 'server-only';
import { consoleRoutes, routePath } from '@/lib/console-api/routes';
import { ConsoleError } from '@/lib/console-error';
import { invalidRequest } from '@/lib/server/errors';
import { consoleRoute } from '@/lib/server/route';
import { fieldErrors } from '@/lib/validation/field-errors';
import { jobRowsQuerySchema } from './contract';
import { jobResultFile, rotationPreviewFile, takeJobTokens } from './files';
import { jobRowsPage } from './job-rows';
import {
  downloadNamed,
  draftGetOrCreateJob,
  draftRotateJob,
  filedUnderJob,
  jobRoute,
  namingNote,
  toJobView,
} from './server';
import { steer, steering } from './steering';

/**
 * The console routes of this feature, each declared once with what the server adds to its
 * definition (routes.ts): its audit, approval and what it acts on, and the call it adapts. The
 * app/api route files only name them. Server-only: the frame (lib/server/route.ts) runs them.
 */

// /api/user-groups/[environment]/jobs/get-or-create
/** A CSV read and checked into a draft job: the answer previews its bad rows. */
export const draftGetOrCreateJobRoute = consoleRoute(
  consoleRoutes.createGetOrCreateJob,
  ({ body, environment, operator, server }) => draftGetOrCreateJob(server, environment, operator, body),
);

// /api/user-groups/[environment]/jobs/rotate
/** Tokens pasted or uploaded, or groups chosen in the directory, checked into a draft rotation job. */
export const draftRotateJobRoute = consoleRoute(
  consoleRoutes.createRotateJob,
  ({ body, environment, operator, requestId, server }) =>
    draftRotateJob(server, environment, operator, requestId, body),
);

// /api/jobs/[id] (GET)
/**
 * A job's progress (no token is in it), for every operator but a viewer on a rotation made from
 * tokens: its rows say whose each token is (jobRoute's load refuses).
 */
export const readJobRoute = consoleRoute({ ...consoleRoutes.readJob, ...jobRoute }, async ({ subject }) =>
  toJobView(subject),
);

// /api/jobs/[id] (POST)
/**
 * Start, pause, resume or cancel, each on record before it happens: when its entry cannot be
 * written, the job stays as it was (503 audit_unavailable). Starting or resuming in Customer needs
 * a recent authentication; starting a rotation there asks for the number of tokens, typed.
 */
export const steerJobRoute = consoleRoute(
  { ...consoleRoutes.steerJob, ...steering },
  ({ body, subject, entryId, requestId, server }) => steer(server, subject, body, entryId, requestId),
);

// /api/jobs/[id]/rows
/**
 * A page of a job's rows: each row's group and what happened to it, in the file's order, paged
 * after the last row's position. Reading, not on record; a rotation made from tokens only for
 * those who may rotate (jobRoute's load refuses the others).
 */
export const jobRowsRoute = consoleRoute(
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

// /api/jobs/[id]/result
/**
 * A job's result as CSV, every row's outcome, without tokens: a GET, which a link or a cross-site
 * navigation may fetch, so it never carries or erases a token (POST …/tokens does). Audited.
 */
export const jobResultRoute = consoleRoute(
  {
    ...consoleRoutes.jobResult,
    ...jobRoute,
    audit: {
      action: 'bulk.download',
      request: (_body, job) => ({ detail: downloadNamed('Result', job, 'without tokens') }),
      filedUnder: filedUnderJob,
    },
  },
  async ({ request, params, subject, server, note }) => {
    if (new URL(request.url).searchParams.has('tokens'))
      throw new ConsoleError(
        'invalid_request',
        `The result with tokens is downloaded with POST ${routePath(consoleRoutes.jobTokens, params)}, from the job's page.`,
      );
    return jobResultFile(server, subject, namingNote('Result', subject, note));
  },
);

// /api/jobs/[id]/tokens
/**
 * A finished job's result with the tokens it produced, handed out once, then erased. A POST (the
 * route frame refuses other origins), so a link on another site can neither take nor erase them.
 * The entry is on record before the tokens are taken, and settled with how many rows went.
 */
export const jobTokensRoute = consoleRoute(
  {
    ...consoleRoutes.jobTokens,
    ...jobRoute,
    audit: {
      action: 'bulk.download',
      request: (_body, job) => ({ detail: downloadNamed('Result', job, 'with tokens') }),
      filedUnder: filedUnderJob,
    },
  },
  ({ operator, subject, server, note }) =>
    takeJobTokens(server, operator, subject, namingNote('Result', subject, note)),
);

// /api/jobs/[id]/preview
/**
 * Every group a rotation job will rotate, as CSV: line, id, name and the fingerprint of the token
 * to replace (a pasted token's group as the directory knows it, or "not known to the console").
 * No token, so a GET any operator may follow; audited as a download.
 */
export const jobPreviewRoute = consoleRoute(
  {
    ...consoleRoutes.jobPreview,
    ...jobRoute,
    audit: {
      action: 'bulk.download',
      request: (_body, job) => ({ detail: downloadNamed('Preview', job, 'the groups to rotate') }),
      filedUnder: filedUnderJob,
    },
  },
  ({ subject, server, note }) => rotationPreviewFile(server, subject, namingNote('Preview', subject, note)),
);
