/**
 * The audit stream's loop, one per console: whichever console holds the lease (lease.ts) sends the
 * outbox (outbox.ts) in the order written, a bounded batch at a time, and deletes a batch once the endpoint
 * took it; the others wait for the lease. A failed batch is sent again, whole, after a backoff (or
 * the endpoint's Retry-After); nothing is ever dropped: a 4xx is retried like a 5xx, and 413 halves the
 * batch. Delivery is at least once: a console killed after the
 * endpoint took a batch but before deleting it leaves that batch to be sent again, with the same
 * idempotency keys.
 */
import type { Clock } from '@/lib/clock';
import type { AuditStreamConfig } from '@/lib/config/audit-stream';
import type { ConsoleDb } from '@/lib/db/console-database';
import type { ConsoleMetrics } from '@/lib/metrics/console-metrics';
import { acknowledgeBatch, nextBatch, openAuditStream, recordFailure } from './delivery';
import { formatBatch } from './format';
import { createStreamLease } from './lease';
import { sendBatch } from './send';
import { readStreamStatus } from './status';

export interface StreamerTiming {
  /** How long a lease lasts unrenewed (a dead console's is free after that). */
  leaseMs: number;
  /** How often an idle or waiting console looks again. */
  pollMs: number;
  /** How old an outbox row must be before it is sent (delivery.ts's nextBatch). */
  settleMs: number;
  /** The first retry's wait, doubled each time up to maxBackoffMs. */
  backoffMs: number;
  maxBackoffMs: number;
}

const DEFAULT_TIMING: StreamerTiming = {
  leaseMs: 30_000,
  pollMs: 1_000,
  settleMs: 1_000,
  backoffMs: 1_000,
  maxBackoffMs: 300_000,
};

interface Streamer<C extends AuditStreamConfig | null = AuditStreamConfig> {
  db: ConsoleDb;
  /** null (AUDIT_STREAM_URL unset): this console does not stream, and leaves the stream alone. */
  config: C;
  metrics: Pick<
    ConsoleMetrics,
    'auditStreamDelivered' | 'auditStreamFailures' | 'auditStreamLag' | 'auditStreamPending'
  >;
  log: (level: 'info' | 'warn', fields: Record<string, unknown>, message: string) => void;
  clock: Clock;
  timing?: Partial<StreamerTiming>;
}

const MAX_RETRY_AFTER_MS = 900_000;
const OBSERVE_EVERY_MS = 5_000;

/** Full jitter between half and all of the doubled wait: consoles retrying together spread out. */
export const backoff = (attempt: number, { backoffMs, maxBackoffMs }: StreamerTiming, random = Math.random) =>
  Math.round(Math.min(maxBackoffMs, backoffMs * 2 ** Math.max(0, attempt - 1)) * (0.5 + random() / 2));

/**
 * Starts streaming until stopped; stop() frees the lease for another console. Without a config it
 * does nothing at all: the stream's row and outbox belong to the consoles that stream (several may
 * share the database); only `npm run audit -- stream-off` switches a stream off.
 */
export function startAuditStreamer(streamer: Streamer<null>): null;
export function startAuditStreamer(streamer: Streamer): { stop(): Promise<void> };
export function startAuditStreamer(
  streamer: Streamer<AuditStreamConfig | null>,
): { stop(): Promise<void> } | null;
export function startAuditStreamer(
  streamer: Streamer<AuditStreamConfig | null>,
): { stop(): Promise<void> } | null {
  const { db, config, metrics, log, clock } = streamer;
  if (!config) return null;
  const timing = { ...DEFAULT_TIMING, ...streamer.timing };
  const lease = createStreamLease(db, timing.leaseMs, clock);
  // A send ends well before the lease it was sent under runs out.
  const timeoutMs = Math.max(100, Math.floor(timing.leaseMs / 3));
  const stopped = new AbortController();
  const iso = (ms: number) => new Date(ms).toISOString();

  // The gauges, every few seconds: counting a long backlog before each batch would slow catching up.
  let observedAt = Number.NEGATIVE_INFINITY;
  const observe = async () => {
    if (clock.monotonic() - observedAt < OBSERVE_EVERY_MS) return;
    observedAt = clock.monotonic();
    const status = await readStreamStatus(db, clock.now());
    metrics.auditStreamLag.set(status?.lagSeconds ?? 0);
    metrics.auditStreamPending.set(status?.pending ?? 0);
  };

  const running = (async () => {
    let attempt = 0;
    let notBefore = 0;
    let batchSize = config.batchSize;
    let opened = false;
    while (!stopped.signal.aborted) {
      try {
        if (!opened) {
          await openAuditStream(db);
          opened = true;
        }
        await observe();
        if (!(await lease.claim())) {
          await clock.sleep(timing.pollMs, stopped.signal);
          continue;
        }
        const waitMs = notBefore - clock.monotonic();
        if (waitMs > 0) {
          // Waiting out a backoff, renewing the lease meanwhile.
          await clock.sleep(Math.min(waitMs, timing.leaseMs / 3), stopped.signal);
          continue;
        }
        const batch = await nextBatch(db, batchSize, iso(clock.now() - timing.settleMs));
        if (batch.length === 0) {
          await clock.sleep(timing.pollMs, stopped.signal);
          continue;
        }
        const objects = batch.map((row) => JSON.parse(row.body));
        const outcome = await sendBatch(config.url, formatBatch(config.format, objects, config.token), {
          timeoutMs,
          now: clock.now,
        });
        if (outcome.delivered) {
          const held = await acknowledgeBatch(
            db,
            lease.owner,
            batch.map((row) => row.id),
            iso(clock.now()),
          );
          metrics.auditStreamDelivered.inc(batch.length);
          if (attempt > 0)
            log('info', { entries: batch.length, attempts: attempt + 1 }, 'audit stream delivering again');
          if (!held) log('warn', {}, 'audit stream: the lease ran out during a batch');
          attempt = 0;
          notBefore = 0;
          batchSize = config.batchSize;
          continue;
        }
        attempt += 1;
        metrics.auditStreamFailures.inc({
          reason: outcome.status === null ? outcome.failure : String(outcome.status),
        });
        await recordFailure(db, lease.owner, outcome.failure, iso(clock.now()));
        if (outcome.status === 413) batchSize = Math.max(1, Math.ceil(batchSize / 2));
        // The endpoint's Retry-After as said (up to a quarter of an hour), else the backoff.
        const retryInMs =
          outcome.retryAfterMs === null
            ? backoff(attempt, timing)
            : Math.min(outcome.retryAfterMs, MAX_RETRY_AFTER_MS);
        notBefore = clock.monotonic() + retryInMs;
        // The endpoint's host and the failure, never the token or the entries.
        log(
          'warn',
          { endpoint: config.url.host, failure: outcome.failure, attempt, retryInMs },
          'audit stream: batch not delivered',
        );
      } catch (error) {
        log('warn', { err: { name: (error as Error)?.name } }, 'audit stream: the database did not answer');
        await clock.sleep(timing.pollMs, stopped.signal);
      }
    }
    await lease.release();
  })();

  return {
    async stop() {
      stopped.abort();
      await running;
    },
  };
}
