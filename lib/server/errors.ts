import 'server-only';
import { ConsoleError } from '@/lib/console-error';
import type { Environment } from '@/lib/environments';
import { UpstreamError } from '@/lib/user-group-api/client';
import type { UserGroupOperation } from '@/lib/user-groups/contract';
import { describeFieldErrors } from '@/lib/validation/field-errors';
import { logger } from './logger';

/** What a person who cannot change the console's setup reads of a setup failure. */
export const NOT_SET_UP = 'This environment is not set up yet: ask an admin of the console.';

/**
 * The environment has no API key. Everyone reads NOT_SET_UP; admins, who can fix it, the variable
 * (the log keeps it too).
 */
export function environmentNotConfigured(environment: Environment): ConsoleError {
  return new ConsoleError('environment_not_configured', NOT_SET_UP, {}, notConfiguredForAdmins(environment));
}

/** The same, for an admin: which variable to set. */
export const notConfiguredForAdmins = (environment: Environment) =>
  `The ${environment} environment is not configured: the console has no API key for it (USER_GROUP_API_KEY_${environment.toUpperCase()}).`;

/** Refusals before any work: who may send what, from where. */
export const accessErrors = {
  unauthenticated: () =>
    new ConsoleError('unauthenticated', 'Your session has ended or you are not signed in: sign in again.'),
  forbidden: (action: string) =>
    new ConsoleError('forbidden', `Your role may not ${action}. Ask an admin of the console.`),
  crossSite: () =>
    new ConsoleError(
      'cross_site_request',
      'The console refuses changes sent from another site. Use the console itself.',
    ),
};

/** 400 with a message per field; `subject` names what to check ("input", "filters"). */
export function invalidRequest(fields: Record<string, string>, subject = 'input'): ConsoleError {
  return new ConsoleError('invalid_request', `Check the ${subject}: ${describeFieldErrors(fields)}.`, {
    fields,
  });
}

/** The audit log could not be written, so the action was not carried out. */
export function auditUnavailable(requestId: string): ConsoleError {
  return new ConsoleError(
    'audit_unavailable',
    `Nothing was done: the console could not write its audit log (request ${requestId}). Try again in a moment.`,
    { requestId },
  );
}

export function internalError(requestId: string): ConsoleError {
  return new ConsoleError('internal', `Something went wrong in the console (request ${requestId}).`, {
    requestId,
  });
}

const notFoundMessages: Record<UserGroupOperation, string> = {
  'get-or-create': 'The User Group Service found no such user group.',
  rotate: 'No user group has that token: it may have been rotated or deleted already.',
  delete: 'No user group matches that user group ID and token: check both (a rotated token no longer works).',
};

/**
 * The one place where upstream failures become errors a person can act on. Anything that is not
 * an UpstreamError is returned as is (the route wrapper answers unknown errors with `internal`).
 */
export function fromUpstreamError(
  error: unknown,
  operation: UserGroupOperation,
  environment: Environment,
  requestId: string,
): unknown {
  const suffix = environment.toUpperCase();
  if (!(error instanceof UpstreamError)) return error;
  const { status, fields, retryAfterSeconds } = error.details;
  switch (error.kind) {
    case 'invalid_request':
      logUpstreamWords(error, requestId);
      return new ConsoleError(
        'upstream_invalid_request',
        `The User Group Service refused the input${fields ? `: check ${Object.keys(fields).join(', ')}` : ''} (request ${requestId}).`,
        {
          ...(fields
            ? {
                fields: Object.fromEntries(
                  Object.keys(fields).map((name) => [name, 'was refused by the User Group Service']),
                ),
              }
            : {}),
          requestId,
        },
      );
    case 'unauthorized':
      return new ConsoleError(
        'api_key_refused',
        `The User Group Service refused the console's API key for ${environment}: ask an admin of the console.`,
        { requestId },
        `The console's API key for ${environment} was refused: check USER_GROUP_API_KEY_${suffix}.`,
      );
    case 'not_found':
      return new ConsoleError('not_found', notFoundMessages[operation], { requestId });
    case 'rate_limited': {
      const wait = retryAfterSeconds ?? 1;
      return new ConsoleError(
        'rate_limited',
        `The User Group Service is rate limiting the console: retry in ${wait} s.`,
        { retryAfterSeconds: wait, requestId },
      );
    }
    // The service's address is the console's setup: admins read it (and the log keeps it), the
    // others read what to do.
    case 'unreachable':
      return new ConsoleError(
        'upstream_unreachable',
        'The User Group Service could not be reached. Retry in a moment; if it keeps failing, ask an admin of the console.',
        { requestId },
        `${error.message} Check that it is running and that USER_GROUP_API_URL (or USER_GROUP_API_URL_${suffix}) is right.`,
      );
    case 'timeout':
      return new ConsoleError(
        'upstream_timeout',
        'The User Group Service did not answer in time. Retry in a moment.',
        { requestId },
        `${error.message} Retry in a moment.`,
      );
    case 'malformed':
      return new ConsoleError(
        'upstream_malformed',
        'The User Group Service answered in an unexpected shape. Ask an admin of the console to check where it sends requests.',
        { requestId },
        `${error.message} Is USER_GROUP_API_URL (or USER_GROUP_API_URL_${suffix}) a User Group Service?`,
      );
    case 'failed':
      logUpstreamWords(error, requestId);
      return new ConsoleError(
        'upstream_error',
        `The User Group Service failed${status ? ` (HTTP ${status})` : ''}: try again in a moment (request ${requestId}).`,
        { requestId },
      );
  }
}

/**
 * The service's own words (and its field messages) are not the console's: a person reads the
 * console's, and the service's stay in the log, under the request id the person sees.
 */
function logUpstreamWords(error: UpstreamError, requestId: string): void {
  logger.warn(
    { requestId, upstream: { kind: error.kind, message: error.message, fields: error.details.fields } },
    'the User Group Service refused or failed a request',
  );
}
