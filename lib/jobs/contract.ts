/**
 * The console's bulk job routes: what the browser sends to create and steer a job, and the
 * progress it reads back. Tokens never travel in these answers; they come only in the result CSV,
 * when asked for and allowed.
 */
import * as z from 'zod/mini';
import { DIRECTORY_SEARCH_MAX } from '@/lib/directory/contract';
import { environments } from '@/lib/environments';

export const MAX_CSV_MB = 5;
/** A CSV sent as a JSON string may grow by its escapes: the route reads up to this much. */
export const JOB_BODY_MAX_BYTES = 12 * 1024 * 1024;

const source = z.string().check(z.trim(), z.minLength(1), z.maxLength(255));

export const createGetOrCreateJobSchema = z.object({ source, csv: z.string() });
export type CreateGetOrCreateJob = z.infer<typeof createGetOrCreateJobSchema>;

/** The rotation form's choice that sends tokens the console has never seen (`sendUnknown`). */
export const SEND_UNKNOWN_LABEL = 'Also send tokens this console has never seen';

/**
 * What a job is made from: a file of groups (get-or-create), tokens pasted or in a file (rotation),
 * or groups chosen in the directory (rotation). Kept on the job, for its words and who may read it.
 */
const jobInputs = ['groups-file', 'pasted-tokens', 'tokens-file', 'directory'] as const;
export type JobInput = (typeof jobInputs)[number];

export const createRotateJobSchema = z.union([
  /**
   * sendUnknown: a token the console never saw is sent too (else it is a row with a problem).
   * tokensFrom: pasted (the default) or a file's, for the words the job's page uses.
   */
  z.object({
    source,
    tokens: z.string(),
    sendUnknown: z.optional(z.boolean()),
    tokensFrom: z.optional(z.enum(['pasted', 'file'])),
  }),
  z.object({ source, userGroupIds: z.array(z.string()).check(z.maxLength(10_000)) }),
  /** Every group a directory search matches ("Select all N matches"): the server runs the search. */
  z.object({
    source,
    search: z.string().check(z.trim(), z.minLength(1), z.maxLength(DIRECTORY_SEARCH_MAX)),
  }),
]);
export type CreateRotateJob = z.infer<typeof createRotateJobSchema>;

/** What a person may do to a job; which states each applies to: jobTransitions, below. */
const jobActions = ['start', 'pause', 'resume', 'cancel'] as const;
export type JobAction = (typeof jobActions)[number];

export const jobActionSchema = z.object({
  action: z.enum(jobActions),
  /** In Customer, starting a rotation job asks the person to type the number of tokens. */
  confirmation: z.optional(z.string().check(z.maxLength(50))),
});
export type JobActionBody = z.infer<typeof jobActionSchema>;

export const jobViewSchema = z.object({
  id: z.string(),
  environment: z.enum(environments),
  kind: z.enum(['get-or-create', 'rotate']),
  status: z.enum(['draft', 'running', 'paused', 'cancelled', 'finished']),
  source: z.string(),
  /** null: a job made before its input was kept. */
  input: z.nullable(z.enum(jobInputs)),
  createdAt: z.string(),
  createdBy: z.string(),
  startedAt: z.nullable(z.string()),
  finishedAt: z.nullable(z.string()),
  pausedReason: z.nullable(z.string()),
  tokensErasedAt: z.nullable(z.string()),
  tokensTakenBy: z.nullable(z.string()),
  counts: z.object({
    total: z.number(),
    invalid: z.number(),
    pending: z.number(),
    sending: z.number(),
    done: z.number(),
    failed: z.number(),
  }),
  ratePerMinute: z.nullable(z.number()),
  secondsLeft: z.nullable(z.number()),
  invalidRows: z.array(
    z.object({ line: z.number(), userGroupId: z.nullable(z.string()), problems: z.string() }),
  ),
  failedRows: z.array(z.object({ line: z.number(), userGroupId: z.nullable(z.string()), error: z.string() })),
});
export type JobView = z.infer<typeof jobViewSchema>;

/**
 * Which states each action applies to, and the state it leaves: the rule the server applies
 * (lib/jobs/job-transitions.ts's steerJob, in one conditional update) and the job page's buttons both.
 */
export const jobTransitions: Record<
  JobAction,
  { from: readonly JobView['status'][]; to: JobView['status'] }
> = {
  start: { from: ['draft'], to: 'running' },
  pause: { from: ['running'], to: 'paused' },
  resume: { from: ['paused'], to: 'running' },
  cancel: { from: ['draft', 'running', 'paused'], to: 'cancelled' },
};

export const jobActionAllowed = (action: JobAction, status: JobView['status']): boolean =>
  jobTransitions[action].from.includes(status);

/** What a draft's person can do about its bad rows, in the words of what they gave. */
export function fixAdvice(kind: JobView['kind'], input: JobInput | null): string {
  switch (input ?? (kind === 'get-or-create' ? 'groups-file' : null)) {
    case 'groups-file':
    case 'tokens-file':
      return 'fix the file and upload it again';
    case 'pasted-tokens':
      return 'fix the tokens and check them again';
    case 'directory':
      return 'choose the groups again in the directory';
    default:
      return 'fix the list and check it again';
  }
}

/**
 * What happened to a row, as a person reads it: created or found unchanged (get-or-create),
 * rotated, refused by the preview, failed when sent; before that, ready (a draft), waiting (a job
 * running or paused) or not sent (a job cancelled first).
 */
const rowOutcomes = [
  'created',
  'found',
  'rotated',
  'refused',
  'failed',
  'ready',
  'waiting',
  'not-sent',
] as const;
export type RowOutcome = (typeof rowOutcomes)[number];

/** Which rows a page of them lists: all, or those of one outcome (pending: not sent yet). */
export const rowFilters = ['all', 'created', 'found', 'rotated', 'refused', 'failed', 'pending'] as const;
export type RowFilter = (typeof rowFilters)[number];

const JOB_ROWS_PAGE_MAX = 500;
export const JOB_ROWS_PAGE_DEFAULT = 100;

/** A page's position: after the row of this line and number (keyset), as `line.row`. */
const cursorPattern = /^\d{1,9}\.\d{1,9}$/;

const blankIsAbsent = (value: unknown) =>
  typeof value === 'string' && value.trim() === '' ? undefined : value;

/** The query string of GET /api/jobs/<id>/rows: one schema for the route and the browser. */
export const jobRowsQuerySchema = z.object({
  after: z.pipe(
    z.transform(blankIsAbsent),
    z.optional(z.string().check(z.regex(cursorPattern, { error: 'must be a position this route answered' }))),
  ),
  limit: z.pipe(
    z.transform(blankIsAbsent),
    z._default(
      z.coerce
        .number({ error: `must be a whole number from 1 to ${JOB_ROWS_PAGE_MAX}` })
        .check(
          z.int({ error: `must be a whole number from 1 to ${JOB_ROWS_PAGE_MAX}` }),
          z.minimum(1, { error: `must be a whole number from 1 to ${JOB_ROWS_PAGE_MAX}` }),
          z.maximum(JOB_ROWS_PAGE_MAX, { error: `must be a whole number from 1 to ${JOB_ROWS_PAGE_MAX}` }),
        ),
      JOB_ROWS_PAGE_DEFAULT,
    ),
  ),
  show: z.pipe(
    z.transform(blankIsAbsent),
    z._default(z.enum(rowFilters, { error: `must be one of ${rowFilters.join(', ')}` }), 'all'),
  ),
});
export type JobRowsQuery = z.output<typeof jobRowsQuerySchema>;

/** One page of a job's rows, in the file's order: no token, ever. */
export const jobRowsPageSchema = z.object({
  rows: z.array(
    z.object({
      line: z.number(),
      userGroupId: z.nullable(z.string()),
      name: z.nullable(z.string()),
      outcome: z.enum(rowOutcomes),
      /** Why a row was refused or failed. */
      note: z.nullable(z.string()),
    }),
  ),
  /** The rows the filter matches, on every page. */
  total: z.number(),
  /** The position to ask for the next page with (`after`), or null on the last. */
  next: z.nullable(z.string()),
});
export type JobRowsPage = z.infer<typeof jobRowsPageSchema>;
export type JobRow = JobRowsPage['rows'][number];

/** The query string for a page of rows (`?` included). */
export function jobRowsQueryString(query: {
  after?: string | null;
  limit?: number;
  show?: RowFilter;
}): string {
  const params = new URLSearchParams();
  if (query.after) params.set('after', query.after);
  if (query.limit !== undefined) params.set('limit', String(query.limit));
  if (query.show && query.show !== 'all') params.set('show', query.show);
  const text = params.toString();
  return text ? `?${text}` : '';
}
