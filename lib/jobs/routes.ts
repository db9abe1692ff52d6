/**
 * The bulk jobs: created from a list, steered, and their result, preview and tokens read. Their console
 * routes' definitions (lib/console-api/define-route.ts), gathered with every feature's in
 * lib/console-api/routes.ts. Plain module: the browser imports it.
 */
import { defineRoute } from '@/lib/console-api/define-route';
import {
  createGetOrCreateJobSchema,
  createRotateJobSchema,
  JOB_BODY_MAX_BYTES,
  jobActionSchema,
  jobRowsPageSchema,
  jobViewSchema,
} from '@/lib/jobs/contract';

export const jobRoutes = {
  createGetOrCreateJob: defineRoute({
    name: 'jobs.create-get-or-create',
    method: 'POST',
    path: '/api/user-groups/[environment]/jobs/get-or-create',
    permission: 'user-groups:get-or-create',
    body: createGetOrCreateJobSchema,
    answer: jobViewSchema,
    maxBodyBytes: JOB_BODY_MAX_BYTES,
  }),
  createRotateJob: defineRoute({
    name: 'jobs.create-rotate',
    method: 'POST',
    path: '/api/user-groups/[environment]/jobs/rotate',
    permission: 'user-groups:rotate',
    body: createRotateJobSchema,
    answer: jobViewSchema,
  }),
  readJob: defineRoute({
    name: 'jobs.read',
    method: 'GET',
    path: '/api/jobs/[id]',
    permission: 'console:use',
    answer: jobViewSchema,
  }),
  /**
   * A page of the job's rows in the file's order, each with its group and what happened to it
   * (query: jobRowsQuerySchema; paged by keyset, `after` the answer's `next`). No token, ever.
   */
  jobRows: defineRoute({
    name: 'jobs.rows',
    method: 'GET',
    path: '/api/jobs/[id]/rows',
    permission: 'console:use',
    answer: jobRowsPageSchema,
  }),
  /** Start, pause, resume or cancel; the job's kind asks for more (lib/jobs/server.ts). */
  steerJob: defineRoute({
    audits: ['bulk.get-or-create', 'bulk.rotate'],
    name: 'jobs.steer',
    method: 'POST',
    path: '/api/jobs/[id]',
    permission: 'user-groups:get-or-create',
    body: jobActionSchema,
    answer: jobViewSchema,
    // Sending to production needs a recent authentication; pausing and cancelling never wait for one.
    stepUp: (body) => (body.action === 'start' || body.action === 'resume' ? 'in-production' : null),
  }),
  /** Every row's outcome as CSV, no token: a GET, which a link may fetch. */
  jobResult: defineRoute({
    audits: ['bulk.download'],
    name: 'jobs.result',
    method: 'GET',
    path: '/api/jobs/[id]/result',
    permission: 'console:use',
  }),
  /**
   * A rotation job's groups as CSV (ids, names, token fingerprints; never a token): a GET, like the
   * result. It says whose each pasted token is: for those who may rotate, as Identify is for those
   * who may see tokens.
   */
  jobPreview: defineRoute({
    audits: ['bulk.download'],
    name: 'jobs.preview',
    method: 'GET',
    path: '/api/jobs/[id]/preview',
    permission: 'user-groups:rotate',
  }),
  /** The result with the tokens, handed out once and then erased: a POST, so no link can take them. */
  jobTokens: defineRoute({
    audits: ['bulk.download'],
    name: 'jobs.tokens',
    method: 'POST',
    path: '/api/jobs/[id]/tokens',
    permission: 'user-groups:reveal-token',
    // In the job's environment, which the route frame reads from the job.
    stepUp: 'in-production',
  }),
};
