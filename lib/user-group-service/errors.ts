/**
 * The one error shape of the service: an HTTP status plus
 * `{"success": 0, "error": {"code", "message", "fields"?}}`. Handlers throw ServiceError; the router
 * turns it (or anything else, as a 500 without details) into the answer.
 */
import type { ErrorCode } from '../user-group-api/contract';

const STATUS_BY_CODE: Record<ErrorCode, number> = {
  invalid_request: 400,
  unauthorized: 401,
  not_found: 404,
  method_not_allowed: 405,
  payload_too_large: 413,
  unsupported_media_type: 415,
  rate_limited: 429,
  internal: 500,
};

export type FieldErrors = Record<string, string>;

export class ServiceError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly fields: FieldErrors | undefined;
  /** Extra response headers, e.g. Allow or Retry-After. */
  readonly headers: Record<string, string>;
  /** Close the connection after answering (the rest of the request body is not read). */
  readonly closeConnection: boolean;

  constructor(
    code: ErrorCode,
    message: string,
    extra: { fields?: FieldErrors; headers?: Record<string, string>; closeConnection?: boolean } = {},
  ) {
    super(message);
    this.name = 'ServiceError';
    this.code = code;
    this.status = STATUS_BY_CODE[code];
    this.fields = extra.fields;
    this.headers = extra.headers ?? {};
    this.closeConnection = extra.closeConnection ?? false;
  }

  toBody(): { success: 0; error: { code: ErrorCode; message: string; fields?: FieldErrors } } {
    const error: { code: ErrorCode; message: string; fields?: FieldErrors } = {
      code: this.code,
      message: this.message,
    };
    if (this.fields) error.fields = this.fields;
    return { success: 0, error };
  }
}

export const notFound = (message = 'no such user group, or the token does not match'): ServiceError =>
  new ServiceError('not_found', message);

export const internalError = (): ServiceError =>
  new ServiceError('internal', 'internal error; quote the X-Request-Id header when reporting it');
