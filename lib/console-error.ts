/**
 * The one error a console route answers with. Handlers (and the modules they call) throw it from
 * anywhere; the route wrapper (lib/server/route.ts) turns it into the documented error body with
 * the status of its code. Server-side only: the browser reads the body into its own error
 * (ConsoleApiError, lib/browser-client/). Framework-free, so lib/auth and lib/server share it.
 */
import type { ConsoleErrorBody, ConsoleErrorCode } from '@/lib/console-api/error-body';
import { crossCopyBrand } from '@/lib/process-wide';

/** The one table from error code to HTTP status. */
const statusOfCode: Record<ConsoleErrorCode, number> = {
  invalid_request: 400,
  body_too_large: 413,
  unsupported_media_type: 415,
  upstream_invalid_request: 400,
  api_key_refused: 502,
  environment_not_configured: 503,
  not_found: 404,
  conflict: 409,
  rate_limited: 429,
  upstream_unreachable: 502,
  upstream_timeout: 504,
  upstream_malformed: 502,
  upstream_error: 502,
  unauthenticated: 401,
  forbidden: 403,
  step_up_required: 403,
  second_factor_required: 403,
  cross_site_request: 403,
  audit_unavailable: 503,
  read_too_long: 422,
  database_unavailable: 503,
  internal: 500,
};

type Extra = Omit<ConsoleErrorBody['error'], 'code' | 'message'>;

const { brand, carries } = crossCopyBrand('console-error');

export class ConsoleError extends Error {
  override name = 'ConsoleError';
  /** Thrown by the process's one console server, caught by any copy of this module (lib/process-wide.ts). */
  readonly [brand] = true;

  static [Symbol.hasInstance](value: unknown): boolean {
    return carries(value);
  }

  /**
   * `message` is for anyone; `adminMessage`, when the failure is the console's setup (it names the
   * environment variable to fix), for admins only, who can act on it (see bodyFor).
   */
  constructor(
    readonly code: ConsoleErrorCode,
    message: string,
    readonly extra: Extra = {},
    readonly adminMessage?: string,
  ) {
    super(message);
  }

  get status(): number {
    return statusOfCode[this.code];
  }

  get body(): ConsoleErrorBody {
    return this.bodyFor(false);
  }

  /** The answer for this reader: an admin reads the setup detail when there is one. */
  bodyFor(admin: boolean): ConsoleErrorBody {
    const message = admin && this.adminMessage ? this.adminMessage : this.message;
    return { error: { code: this.code, message, ...this.extra } };
  }

  /** `retry-after` with rate_limited. */
  get headers(): Record<string, string> {
    return this.extra.retryAfterSeconds ? { 'retry-after': String(this.extra.retryAfterSeconds) } : {};
  }
}
