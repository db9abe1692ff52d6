/**
 * What GET /api/upstream-status answers: how each environment's User Group Service answered the
 * console's last probe, for the header (and a bulk job waiting on it). Times are ISO 8601 UTC.
 */
import * as z from 'zod/mini';
import { environments } from '@/lib/environments';

const upstreamStates = [
  /** It answered, and took the API key. */
  'answering',
  /** It answered, but is rate limiting the console. */
  'rate_limited',
  /** It answered, and refused the API key. */
  'key_refused',
  /** It answered with a failure (5xx) or something that is not the interface. */
  'failing',
  /** No answer: unreachable, or too slow. */
  'not_answering',
  /** The console has no API key for it: nothing is asked. */
  'not_configured',
] as const;
export type UpstreamState = (typeof upstreamStates)[number];

const time = z.nullable(z.string());

const upstreamStatusSchema = z.object({
  environment: z.enum(environments),
  state: z.enum(upstreamStates),
  /** When the probe behind `state` ended; null when nothing is asked (not configured). */
  checkedAt: time,
  /** When the service last answered at all (even to refuse), as this console saw. */
  lastAnswerAt: time,
  /** Since when it has been failing (not answering, failing, refusing the key); null while well. */
  troubleSince: time,
});
export type UpstreamStatus = z.infer<typeof upstreamStatusSchema>;

export const upstreamStatusPageSchema = z.object({ environments: z.array(upstreamStatusSchema) });
