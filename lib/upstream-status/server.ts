import 'server-only';
import type { Clock } from '@/lib/clock';
import type { Environment } from '@/lib/environments';
import type { UpstreamState, UpstreamStatus } from '@/lib/upstream-status/contract';
import { UpstreamError, type UserGroupApi } from '@/lib/user-group-api/client';

/**
 * How each environment's User Group Service is doing, from a cheap probe kept a few seconds.
 *
 * The probe must change nothing upstream, and the interface has no read-only call: GET is a
 * get-or-create (it would create the group it names), DELETE deletes. It is a rotate (POST) of an
 * empty token: the interface checks, in this documented order, the API key (401), the rate limit
 * (429), then the body's fields (400: `current_token` must not be empty), so the empty token is
 * refused before any group is looked up or any write begins (the built-in service's handler never
 * reaches its store). A 400 or a 404 (a service that looks the token up anyway: no group holds the
 * empty token) both mean "up, and the key is good"; 401/403 the key is refused; 429 up but limiting;
 * no connection or no answer in time, not answering; 5xx or a foreign shape, failing.
 */
const PROBE = { current_token: '' };

/** A probe's answer is reused this long: the header asks every 30 s per open page. */
export const PROBE_FRESH_MS = 5_000;

function stateOf(error: unknown): UpstreamState {
  if (!(error instanceof UpstreamError)) return 'failing';
  switch (error.kind) {
    case 'invalid_request':
    case 'not_found':
      return 'answering';
    case 'unauthorized':
      return 'key_refused';
    case 'rate_limited':
      return 'rate_limited';
    case 'unreachable':
    case 'timeout':
      return 'not_answering';
    case 'malformed':
    case 'failed':
      return 'failing';
  }
}

/** What answered: anything but silence. */
const answered = (state: UpstreamState) => state !== 'not_answering' && state !== 'not_configured';
const healthy = (state: UpstreamState) => state === 'answering' || state === 'rate_limited';

interface Probed {
  status: UpstreamStatus;
  at: number;
}

export interface UpstreamProbe {
  /** An environment's status, probed again when its last probe is older than PROBE_FRESH_MS. */
  status(environment: Environment): Promise<UpstreamStatus>;
}

/**
 * `api` answers an environment's client, or throws when it has no API key (not configured). One
 * probe at a time per environment: callers meanwhile share it. `clock`: when a probe was made, and
 * how old its answer is.
 */
export function createUpstreamProbe(
  api: (environment: Environment) => UserGroupApi,
  clock: Pick<Clock, 'now'>,
): UpstreamProbe {
  const last = new Map<Environment, Probed>();
  const running = new Map<Environment, Promise<UpstreamStatus>>();

  async function probe(environment: Environment): Promise<UpstreamStatus> {
    let client: UserGroupApi;
    try {
      client = api(environment);
    } catch {
      return {
        environment,
        state: 'not_configured',
        checkedAt: null,
        lastAnswerAt: null,
        troubleSince: null,
      };
    }
    let state: UpstreamState;
    try {
      await client.rotate(PROBE);
      // No group can hold the empty token: an answer in the interface's shape is one that is up.
      state = 'answering';
    } catch (error) {
      state = stateOf(error);
    }
    const at = clock.now();
    const checkedAt = new Date(at).toISOString();
    const before = last.get(environment)?.status;
    const status: UpstreamStatus = {
      environment,
      state,
      checkedAt,
      lastAnswerAt: answered(state) ? checkedAt : (before?.lastAnswerAt ?? null),
      troubleSince: healthy(state) ? null : (before?.troubleSince ?? checkedAt),
    };
    last.set(environment, { status, at });
    return status;
  }

  return {
    status(environment) {
      const known = last.get(environment);
      if (known && clock.now() - known.at < PROBE_FRESH_MS) return Promise.resolve(known.status);
      let pending = running.get(environment);
      if (!pending) {
        pending = probe(environment).finally(() => running.delete(environment));
        running.set(environment, pending);
      }
      return pending;
    },
  };
}
