/**
 * One row of a job sent to the User Group Service, and what its answer means: a result to store,
 * a failure to store, a reason to pause the whole job, or a wait to try again (429s honour
 * Retry-After; timeouts, unreachable service and 5xx back off). Nothing here writes to the database.
 *
 * A row left `sending` by a console that died may or may not have reached the service: a
 * get-or-create is simply sent again (it answers the group as it is); a rotation is settled by
 * reading the group's current token, never by rotating twice.
 */
import type { Selectable } from 'kysely';
import { tokenFingerprint } from '@/lib/audit/fingerprint';
import type { ServiceGroup } from '@/lib/directory/store';
import { UpstreamError, type UserGroupApi } from '@/lib/user-group-api/client';
import type { PauseReason } from './pause-reasons';
import type { BulkJobRowTable, BulkJobTable } from './schema';

export type Row = Selectable<BulkJobRowTable>;

/** What the service answered for a row, to be stored. */
export type Outcome =
  | { kind: 'done'; group: ServiceGroup; isNew: boolean | null; previousToken: string | null; note?: string }
  | { kind: 'failed'; message: string; code: string };

export type RowResult =
  /** `cause`: for a failure, the error, for the log (the service's own words stay there). */
  | { kind: 'answered'; outcome: Outcome; cause?: unknown }
  /**
   * Not settled: the job paused or stopped while the row waited to be tried again, or `halt` says
   * why the job must pause (`cause`: the error, for the log). `status` is what the row is left as:
   * `sending` when it may have been done already, so that whoever runs it next settles it as uncertain.
   */
  | { kind: 'unsettled'; status: 'pending' | 'sending'; halt: PauseReason | null; cause?: unknown };

export interface SendRowOptions {
  job: Pick<BulkJobTable, 'kind'>;
  row: Row;
  /** A rotation's token, opened from the vault; null when the job rotates by id. */
  inputToken: string | null;
  /** The environment's client; throws when the console has none (see pauseReasonOfClient). */
  api: () => UserGroupApi;
  /** Waits for the environment's next request slot. */
  pace: () => Promise<void>;
  /** Asked before trying again: false when the job was paused or stopped meanwhile. */
  mayContinue: () => Promise<boolean>;
}

const MAX_ATTEMPTS = 8;

/** Thrown by the pace gate when the job was paused or stopped while the row waited for its slot. */
const stopped = Symbol('job stopped');
const MAX_BACKOFF_MS = 30_000;

export async function sendRow(options: SendRowOptions): Promise<RowResult> {
  const { job, row, inputToken } = options;
  // Marked sending by a console that died before it stored the answer.
  const uncertain = row.status === 'sending';
  for (let attempt = 1; ; attempt++) {
    // Done already, perhaps: a dead console sent it, or an earlier attempt timed out or failed with
    // 5xx. A rotation is then settled by reading the group; left unsettled, it stays `sending` so
    // that whoever runs it next reads first too, whether the job paused by itself or was paused.
    const maybeDone = uncertain || attempt > 1;
    const leave = (halt: PauseReason | null, cause?: unknown): RowResult => ({
      kind: 'unsettled',
      status: uncertain || (job.kind === 'rotate' && maybeDone) ? 'sending' : 'pending',
      halt,
      ...(cause === undefined ? {} : { cause }),
    });
    if (attempt > 1 && !(await options.mayContinue())) return leave(null);
    let api: UserGroupApi;
    try {
      api = options.api();
    } catch (error) {
      return leave(pauseReasonOfClient(error), error);
    }
    // Each request waits for its slot, then goes only if the job still runs: a job cancelled while
    // a row waited (at a slow pace, for long) sends nothing more.
    const slot = async () => {
      await options.pace();
      if (!(await options.mayContinue())) throw stopped;
    };
    try {
      const outcome =
        job.kind === 'get-or-create'
          ? await getOrCreate(api, slot, row, uncertain)
          : await rotate(api, slot, row, inputToken, maybeDone);
      return { kind: 'answered', outcome };
    } catch (error) {
      if (error === stopped) return leave(null);
      if (error instanceof UpstreamError && error.kind === 'unauthorized') return leave('api_key_refused');
      const retryIn = retryDelay(error, attempt);
      if (retryIn === null || attempt >= MAX_ATTEMPTS)
        return { kind: 'answered', outcome: { kind: 'failed', ...describeFailure(error) }, cause: error };
      await new Promise((resolve) => setTimeout(resolve, retryIn));
    }
  }
}

/**
 * Why the console has no client for the environment: no API key (lib/server answers a ConsoleError
 * with that code), or anything else that failed while setting one up (an unusable URL, say).
 */
function pauseReasonOfClient(error: unknown): PauseReason {
  const code = typeof error === 'object' && error !== null && 'code' in error ? error.code : undefined;
  return code === 'environment_not_configured' ? 'environment_not_configured' : 'environment_unusable';
}

/** `uncertain`: sent before, by a console that died before it stored the answer. */
async function getOrCreate(
  api: UserGroupApi,
  pace: () => Promise<void>,
  row: Row,
  uncertain: boolean,
): Promise<Outcome> {
  await pace();
  const answer = await api.getOrCreate({
    user_group_id: row.user_group_id as string,
    ...(row.name !== null ? { name: row.name } : {}),
    ...(row.mapping !== null ? { mapping: JSON.parse(row.mapping) } : {}),
    ...(row.properties !== null ? { properties: JSON.parse(row.properties) } : {}),
  });
  return {
    kind: 'done',
    group: answer.user_group,
    isNew: answer.new_user_group,
    previousToken: null,
    ...(uncertain && !answer.new_user_group
      ? { note: 'Sent again after the console was interrupted: this job may be what created it.' }
      : {}),
  };
}

/**
 * A rotation. `maybeDone`: an earlier attempt may have rotated already (it timed out, failed with
 * 5xx, or its console died): when the group is known, its current token tells.
 */
async function rotate(
  api: UserGroupApi,
  pace: () => Promise<void>,
  row: Row,
  inputToken: string | null,
  maybeDone: boolean,
): Promise<Outcome> {
  let token = inputToken;
  if (row.user_group_id && (token === null || maybeDone)) {
    await pace();
    const current = await api.getOrCreate({ user_group_id: row.user_group_id });
    if (current.new_user_group) {
      return {
        kind: 'done',
        group: current.user_group,
        isNew: true,
        previousToken: null,
        note: 'It had been deleted elsewhere: get-or-create created it anew (new token); not rotated.',
      };
    }
    if (token !== null && tokenFingerprint(current.user_group.token) !== tokenFingerprint(token)) {
      return {
        kind: 'done',
        group: current.user_group,
        isNew: false,
        previousToken: token,
        note: 'Rotated before the console was interrupted; its new token was read back.',
      };
    }
    token = current.user_group.token;
  }
  if (token === null) return { kind: 'failed', code: 'not_found', message: 'No token and no id to rotate.' };
  await pace();
  try {
    const answer = await api.rotate({ current_token: token });
    return { kind: 'done', group: answer.user_group, isNew: null, previousToken: token };
  } catch (error) {
    if (maybeDone && !row.user_group_id && error instanceof UpstreamError && error.kind === 'not_found') {
      return {
        kind: 'failed',
        code: 'uncertain',
        message:
          'The console was interrupted during this rotation and the token is no longer valid: it was probably rotated, but its new token was not received. Get the group’s current token from its page.',
      };
    }
    throw error;
  }
}

/** Milliseconds to wait before trying again, or null when trying again cannot help. */
export function retryDelay(error: unknown, attempt: number): number | null {
  if (!(error instanceof UpstreamError)) return null;
  const backoff = Math.min(MAX_BACKOFF_MS, 500 * 2 ** (attempt - 1)) * (0.75 + Math.random() * 0.5);
  switch (error.kind) {
    case 'rate_limited':
      return error.details.retryAfterSeconds !== undefined ? error.details.retryAfterSeconds * 1000 : backoff;
    case 'timeout':
    case 'unreachable':
      return backoff;
    case 'failed':
      return (error.details.status ?? 500) >= 500 ? backoff : null;
    default:
      return null;
  }
}

/**
 * A row's failure as its result and the audit log keep it: a code, and the console's words for the
 * person (the job's problems, the result CSV). The service's own words, and its address, stay in the
 * log (run-job.ts logs the cause), as they do for one action (lib/server/errors.ts).
 */
export function describeFailure(error: unknown): { code: string; message: string } {
  if (!(error instanceof UpstreamError))
    return { code: 'internal', message: 'The console failed on this row.' };
  return {
    code: error.kind === 'not_found' ? 'not_found' : `upstream_${error.kind}`,
    message: upstreamFailureWords(error),
  };
}

function upstreamFailureWords(error: UpstreamError): string {
  const { status, fields } = error.details;
  switch (error.kind) {
    case 'not_found':
      return 'No user group holds this token: it was rotated or the group deleted.';
    case 'rate_limited':
      return 'Still rate limited after several tries.';
    case 'invalid_request': {
      const named = Object.keys(fields ?? {});
      return `The User Group Service refused the input${named.length ? `: check ${named.join(', ')}` : ''}.`;
    }
    case 'unauthorized':
      return 'The User Group Service refused the console’s API key.';
    case 'unreachable':
      return 'The User Group Service could not be reached, after several tries.';
    case 'timeout':
      return 'The User Group Service did not answer in time, after several tries.';
    case 'malformed':
      return 'The User Group Service answered in an unexpected shape.';
    case 'failed':
      return `The User Group Service failed${status ? ` (HTTP ${status})` : ''}.`;
  }
}
