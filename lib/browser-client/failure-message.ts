/**
 * What a failed console request means for the person at the screen, decided in one place. The
 * cases every form shares live here: not a console failure at all, no answer, a rate limit, the
 * console's own words. A form adds only its own: its fallback, its words for a status the console
 * did not explain. Pure, so every message is tested without a browser.
 */
import { ConsoleApiError } from './console-client';

export type FailureWords = {
  /** Anything but a ConsoleApiError (a bug, an unexpected answer): its text is never shown, this is. */
  otherwise: string;
  /** This form's words for a refusal the console did not explain, by HTTP status. */
  byStatus?: Partial<Record<number, string>>;
  /** The rest of those refusals, by status; without it, the client's message (`answered 502 without…`). */
  refused?: (status: number) => string;
  /** What a rate limit reads; by default "Too many attempts. Wait N seconds, then try again." */
  rateLimited?: (failure: ConsoleApiError) => string;
  /** false: the console's explanations are not shown; the form words every refusal by its status. */
  consoleWords?: boolean;
};

export function failureMessage(error: unknown, words: FailureWords): string {
  if (!(error instanceof ConsoleApiError)) return words.otherwise;
  // No answer came: the client's own words (no connection, a cancelled step-up, the authenticator).
  if (error.status === null) return error.message;
  const explained = error.explained && words.consoleWords !== false;
  // A rate limit, unless the console's words say more than a delay would (an account locked for a while).
  if (error.status === 429 && (!explained || error.retryAfterSeconds !== undefined))
    return (words.rateLimited ?? waitThenRetry)(error);
  if (explained) return error.message;
  return words.byStatus?.[error.status] ?? words.refused?.(error.status) ?? error.message;
}

const waitThenRetry = ({ retryAfterSeconds }: ConsoleApiError) =>
  `Too many attempts. Wait ${retryAfterSeconds ?? 60} seconds, then try again.`;
