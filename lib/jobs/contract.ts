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

export const createRotateJobSchema = z.union([
  /** sendUnknown: a token the console never saw is sent too (else it is a row with a problem). */
  z.object({ source, tokens: z.string(), sendUnknown: z.optional(z.boolean()) }),
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
