/**
 * What the header says of an environment's service, in the support person's words:
 * "Customer: answering", "Customer: not answering since 10:40 UTC", and when it last asked,
 * "checked 10:42 UTC". Plain module. Times are UTC, as everywhere in the console.
 */
import type { UpstreamStatus } from '@/lib/upstream-status/contract';

export type UpstreamTone = 'well' | 'limited' | 'trouble' | 'off';

/** HH:MM of an ISO 8601 UTC time. */
const clock = (iso: string | null) => (iso ? `${iso.slice(11, 16)} UTC` : 'an unknown time');

/** The state alone: "answering", "not answering since 10:40 UTC", "API key refused". */
export function upstreamCondition(status: UpstreamStatus): string {
  switch (status.state) {
    case 'answering':
      return 'answering';
    case 'rate_limited':
      return 'answering, rate limiting the console';
    case 'key_refused':
      return `API key refused since ${clock(status.troubleSince)}`;
    case 'failing':
      return `failing since ${clock(status.troubleSince)}`;
    case 'not_answering':
      return `not answering since ${clock(status.troubleSince)}`;
    case 'not_configured':
      return 'not set up';
  }
}

/** One environment's line for the header: "Customer: answering", "Testing: not answering since 10:40 UTC". */
export function describeUpstream(status: UpstreamStatus): { text: string; tone: UpstreamTone } {
  const text = `${status.environment}: ${upstreamCondition(status)}`;
  switch (status.state) {
    case 'answering':
      return { text, tone: 'well' };
    case 'rate_limited':
      return { text, tone: 'limited' };
    case 'not_configured':
      return { text, tone: 'off' };
    default:
      return { text, tone: 'trouble' };
  }
}

/** When the services were last asked (the newest probe): "checked 10:42 UTC", or null before any. */
export function lastChecked(statuses: readonly UpstreamStatus[]): string | null {
  const newest = statuses.reduce<string | null>(
    (latest, status) =>
      status.checkedAt && (!latest || status.checkedAt > latest) ? status.checkedAt : latest,
    null,
  );
  return newest ? `checked ${clock(newest)}` : null;
}
