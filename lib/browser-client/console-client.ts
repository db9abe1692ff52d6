/**
 * The browser's side of the console's routes: one call for every definition in ./routes.ts, its
 * method, path and answer schema taken from there, so a page names the route and the compiler
 * checks the params, the body and the answer. Every failure becomes a ConsoleApiError with a
 * message a person can act on. No `Authorization` ever: the session cookie is the credential.
 */

import * as z from 'zod/mini';
import { type ConsoleRouteDefinition, type PathParams, routePath } from '@/lib/console-api/define-route';
import {
  type ConsoleErrorBody,
  type ConsoleErrorCode,
  consoleErrorBodySchema,
} from '@/lib/console-api/error-body';
import { askToStepUp } from './step-up-prompt';

/** How the console refused: the HTTP status, and what its error body said, if it said anything. */
type Refusal = Pick<ConsoleErrorBody['error'], 'fields' | 'retryAfterSeconds'> & {
  status: number;
  explained: boolean;
};

/**
 * The browser's one error for a console request that did not do its job, whichever client sent it
 * (this one, or ./auth-client.ts for /api/auth), and for a passkey the browser's authenticator
 * refused (./passkey-ceremony.ts). ./failure-message.ts turns it into what a person reads.
 */
export class ConsoleApiError extends Error {
  /** The refusal's HTTP status; null when no answer came (no connection, a cancelled step-up, the authenticator). */
  readonly status: number | null;
  /**
   * Whether `message` says why in the product's words: false only for a refusal whose body did not
   * explain it (a proxy's page, a status alone), which each form then words by its status.
   */
  readonly explained: boolean;
  /** The field each problem is about, as the form names it. */
  readonly fields?: Record<string, string>;
  /** With rate_limited: how long to wait. */
  readonly retryAfterSeconds?: number;

  constructor(
    /** The console's code; `internal` for a refusal it did not explain. */
    readonly code: ConsoleErrorCode,
    message: string,
    refusal?: Refusal,
  ) {
    super(message);
    this.name = 'ConsoleApiError';
    this.status = refusal?.status ?? null;
    this.explained = refusal?.explained ?? true;
    this.fields = refusal?.fields;
    this.retryAfterSeconds = refusal?.retryAfterSeconds;
  }

  /** A refusal as the console answered it: its code and words when its body gave them, else its status. */
  static refused(status: number, said: ConsoleErrorBody['error'] | undefined): ConsoleApiError {
    if (!said)
      return new ConsoleApiError('internal', `The console answered ${status} without an explanation.`, {
        status,
        explained: false,
      });
    const { code, message, fields, retryAfterSeconds } = said;
    return new ConsoleApiError(code, message, { status, explained: true, fields, retryAfterSeconds });
  }
}

/**
 * Not a failure: the policy (CONSOLE_REQUIRE_APPROVAL) made the action wait for another operator
 * (202 `{ approval }`). An answer of its own shape, so no caller mistakes it for the action's: a form
 * follows the request (components/approval-waiting.tsx).
 */
export interface WaitingForApproval {
  waiting: { approvalId: string };
}

/** Whether a route's answer is a request waiting for approval rather than the action's own answer. */
export const isWaiting = (answer: unknown): answer is WaitingForApproval =>
  typeof answer === 'object' && answer !== null && 'waiting' in answer;

const WAITING_MESSAGE = 'Waiting for approval by another operator: nothing has been done yet.';

export const CONSOLE_UNREACHABLE_MESSAGE =
  'The console could not be reached. Check your connection and retry.';

/** What a call sends: the path's params (when it has any), the body (when it takes one), a query. */
export type CallInput<Path extends string, Body> = ([keyof PathParams<Path>] extends [never]
  ? { params?: PathParams<Path> }
  : { params: PathParams<Path> }) &
  ([Body] extends [undefined] ? { body?: undefined } : { body: Body }) & {
    /** For a GET: its query string, `?` included (or empty). */
    query?: string;
    signal?: AbortSignal;
  };

/**
 * Calls a route and returns its answer parsed with the route's answer schema (the browser never
 * reads an answer it has not checked), or, for a 202, the request waiting for approval when the
 * caller says it follows one (`mayWait`; else the 202 is refused in words). A failure becomes a ConsoleApiError carrying the console's
 * message, field errors and retry delay.
 */
export function callRoute<Path extends string, Body, Answer>(
  route: ConsoleRouteDefinition<Path, Body, Answer>,
  input: CallInput<Path, Body> & { mayWait: true },
): Promise<Answer | WaitingForApproval>;
export function callRoute<Path extends string, Body, Answer>(
  route: ConsoleRouteDefinition<Path, Body, Answer>,
  input: CallInput<Path, Body>,
): Promise<Answer>;
export async function callRoute<Path extends string, Body, Answer>(
  route: ConsoleRouteDefinition<Path, Body, Answer>,
  input: CallInput<Path, Body> & { mayWait?: boolean },
): Promise<Answer | WaitingForApproval> {
  const response = await send(route, input as CallInput<Path, Body>);
  const payload: unknown = await response.json().catch(() => undefined);
  if (response.status === 202) {
    const waiting = { waiting: { approvalId: approvalIdOf(payload) } };
    if (input.mayWait) return waiting;
    // A caller that cannot follow a request still says that nothing has been done.
    throw new ConsoleApiError('internal', WAITING_MESSAGE, { status: 202, explained: true });
  }
  const answer = route.answer ? z.safeParse(route.answer, payload) : { success: false as const };
  if (!answer.success) throw new ConsoleApiError('internal', 'The console answered in an unexpected shape.');
  return answer.data;
}

/**
 * Calls a route that answers a file (a CSV), for the browser to save. Where fetching the file
 * changes something (a job's tokens are erased once taken) the route is a POST, not a link: no page
 * on another site can make the browser take it.
 */
export async function downloadRoute<Path extends string, Body>(
  route: ConsoleRouteDefinition<Path, Body, Response>,
  input: CallInput<Path, Body>,
): Promise<{ file: Blob; name: string }> {
  const response = await send(route, input);
  const disposition = response.headers.get('content-disposition') ?? '';
  const name = /filename="([^"]+)"/.exec(disposition)?.[1] ?? 'download';
  return { file: await response.blob(), name };
}

/** The request, answered OK, or the failure it documents thrown. */
async function send<Path extends string, Body, Answer>(
  route: ConsoleRouteDefinition<Path, Body, Answer>,
  input: CallInput<Path, Body>,
  retried = false,
): Promise<Response> {
  const url = `${routePath(route, (input.params ?? {}) as PathParams<Path>)}${input.query ?? ''}`;
  let response: Response;
  try {
    response = await fetch(url, {
      method: route.method,
      // A GET carries its question in the URL; a route without a body schema reads none.
      ...(route.method === 'GET' || !route.body
        ? { headers: { Accept: 'application/json' } }
        : { headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(input.body) }),
      cache: 'no-store',
      signal: input.signal,
    });
  } catch (error) {
    if (input.signal?.aborted) throw error;
    throw new ConsoleApiError('internal', CONSOLE_UNREACHABLE_MESSAGE);
  }
  if (!response.ok) {
    const failure = await failureOf(response);
    // A production action asks for a recent authentication: the dialog asks the person, and the
    // same request goes again once they have confirmed (nothing they typed is lost).
    if (failure.code !== 'step_up_required' || retried) throw failure;
    if (await askToStepUp()) return send(route, input, true);
    throw new ConsoleApiError('step_up_required', 'Not done: confirming it is you was cancelled.');
  }
  return response;
}

/** The id of a request waiting for approval, checked before anything follows it. */
function approvalIdOf(payload: unknown): string {
  const approval = (payload as { approval?: { id?: unknown } } | undefined)?.approval;
  if (typeof approval?.id !== 'string')
    throw new ConsoleApiError('internal', 'The console answered in an unexpected shape.');
  return approval.id;
}

/** A failed answer as the error it documents, with the console's message, fields and retry delay. */
async function failureOf(response: Response): Promise<ConsoleApiError> {
  const payload: unknown = await response.json().catch(() => undefined);
  const parsed = consoleErrorBodySchema.safeParse(payload);
  return ConsoleApiError.refused(response.status, parsed.success ? parsed.data.error : undefined);
}
