/**
 * One batch to the endpoint (undici): what came back, as the streamer decides by it. Redirects are
 * never followed (undici's `request` does not, and a 3xx is a failure here): the token must not
 * reach another origin. Nothing here logs; failures are described without the token or the body.
 */
import { type Dispatcher, request } from 'undici';
import type { FormattedBatch } from './format';

export type SendOutcome =
  | { delivered: true }
  | {
      delivered: false;
      /** What the admin reads: `answering 503`, `unreachable`, `timed out`. */
      failure: string;
      /** The status, when the endpoint answered. */
      status: number | null;
      /** Retry-After, in ms from now, when the endpoint said. */
      retryAfterMs: number | null;
    };

/** Retry-After: delay-seconds or an HTTP date; null when absent or unreadable. */
export function retryAfterMs(header: string | string[] | undefined, now: number): number | null {
  const value = Array.isArray(header) ? header[0] : header;
  if (!value) return null;
  if (/^\s*\d+\s*$/.test(value)) return Number(value) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? null : Math.max(0, date - now);
}

export async function sendBatch(
  url: URL,
  batch: FormattedBatch,
  { timeoutMs, now, dispatcher }: { timeoutMs: number; now: () => number; dispatcher?: Dispatcher },
): Promise<SendOutcome> {
  try {
    const answer = await request(url, {
      method: 'POST',
      headers: { 'content-type': batch.contentType, ...batch.headers },
      body: batch.body,
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs,
      signal: AbortSignal.timeout(timeoutMs),
      ...(dispatcher ? { dispatcher } : {}),
    });
    // Read to the end (or dropped) so the connection is reused; the text is never relayed.
    await answer.body.dump({ limit: 64 * 1024 }).catch(() => undefined);
    if (answer.statusCode >= 200 && answer.statusCode < 300) return { delivered: true };
    return {
      delivered: false,
      failure: `answering ${answer.statusCode}`,
      status: answer.statusCode,
      retryAfterMs: retryAfterMs(answer.headers['retry-after'], now()),
    };
  } catch (error) {
    const name = (error as Error)?.name ?? '';
    const timedOut = /Timeout|Abort/.test(name) || /Timeout/.test((error as { code?: string })?.code ?? '');
    return {
      delivered: false,
      failure: timedOut ? 'timed out' : 'unreachable',
      status: null,
      retryAfterMs: null,
    };
  }
}
