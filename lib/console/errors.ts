import 'server-only';
import type { ConsoleErrorBody, ConsoleErrorCode } from '@/lib/console-api/contract';
import { UpstreamError } from '@/lib/user-group-api/client';
import { describeFieldErrors } from '@/lib/validation/field-errors';
import { ConsoleConfigError } from './config';

export type Operation = 'get-or-create' | 'rotate' | 'delete';

export interface ConsoleFailure {
  status: number;
  body: ConsoleErrorBody;
  headers?: Record<string, string>;
}

export function consoleFailure(
  status: number,
  code: ConsoleErrorCode,
  message: string,
  extra: Omit<ConsoleErrorBody['error'], 'code' | 'message'> = {},
): ConsoleFailure {
  return { status, body: { error: { code, message, ...extra } } };
}

/** Refusals before any work: who may send what, from where. */
export const accessFailures = {
  unauthenticated: (): ConsoleFailure =>
    consoleFailure(401, 'unauthenticated', 'Your session has ended or you are not signed in: sign in again.'),
  forbidden: (action: string): ConsoleFailure =>
    consoleFailure(403, 'forbidden', `Your role may not ${action}. Ask an admin of the console.`),
  crossSite: (): ConsoleFailure =>
    consoleFailure(
      403,
      'cross_site_request',
      'The console refuses changes sent from another site. Use the console itself.',
    ),
};

/** 503: the audit log could not be written, so the action was not carried out. */
export function auditUnavailable(requestId: string): ConsoleFailure {
  return consoleFailure(
    503,
    'audit_unavailable',
    `Nothing was done: the console could not write its audit log (request ${requestId}). Try again in a moment.`,
    { requestId },
  );
}

/** 400 with a message per field; `subject` names what to check ("input", "filters"). */
export function invalidRequest(fields: Record<string, string>, subject = 'input'): ConsoleFailure {
  return consoleFailure(400, 'invalid_request', `Check the ${subject}: ${describeFieldErrors(fields)}.`, {
    fields,
  });
}

const notFoundMessages: Record<Operation, string> = {
  'get-or-create': 'The User Group Service found no such user group.',
  rotate: 'No user group has that token: it may have been rotated or deleted already.',
  delete: 'No user group matches that user group ID and token: check both (a rotated token no longer works).',
};

/**
 * The one place where failures become answers a person can act on. Unknown errors become a
 * generic message with the request id: raw messages never reach the browser.
 */
export function toConsoleFailure(error: unknown, operation: Operation, requestId: string): ConsoleFailure {
  if (error instanceof ConsoleConfigError) {
    return consoleFailure(500, 'internal', error.message, { requestId });
  }
  if (!(error instanceof UpstreamError)) {
    return consoleFailure(500, 'internal', `Something went wrong in the console (request ${requestId}).`, {
      requestId,
    });
  }
  const { status, fields, retryAfterSeconds } = error.details;
  switch (error.kind) {
    case 'invalid_request':
      return consoleFailure(
        400,
        'upstream_invalid_request',
        `The User Group Service refused the input: ${error.message}`,
        {
          fields,
          requestId,
        },
      );
    case 'unauthorized':
      return consoleFailure(
        502,
        'api_key_refused',
        "The console's API key was refused: check USER_GROUP_API_KEY.",
        {
          requestId,
        },
      );
    case 'not_found':
      return consoleFailure(404, 'not_found', notFoundMessages[operation], { requestId });
    case 'rate_limited': {
      const wait = retryAfterSeconds ?? 1;
      const failure = consoleFailure(
        429,
        'rate_limited',
        `The User Group Service is rate limiting the console: retry in ${wait} s.`,
        { retryAfterSeconds: wait, requestId },
      );
      return { ...failure, headers: { 'retry-after': String(wait) } };
    }
    case 'unreachable':
      return consoleFailure(
        502,
        'upstream_unreachable',
        `${error.message} Check that it is running and that USER_GROUP_API_URL is right.`,
        {
          requestId,
        },
      );
    case 'timeout':
      return consoleFailure(504, 'upstream_timeout', `${error.message} Retry in a moment.`, { requestId });
    case 'malformed':
      return consoleFailure(
        502,
        'upstream_malformed',
        `${error.message} Is USER_GROUP_API_URL a User Group Service?`,
        {
          requestId,
        },
      );
    case 'failed':
      return consoleFailure(
        502,
        'upstream_error',
        `The User Group Service failed${status ? ` (HTTP ${status})` : ''}: ${error.message}`,
        { requestId },
      );
  }
}
