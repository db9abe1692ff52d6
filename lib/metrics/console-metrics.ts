/**
 * The console process's metrics: one prom-client registry per process, read at `/metrics` (served
 * by the console's own node:http server, lib/launcher/console-http-server.ts).
 *
 * Several copies of this module run in one console process: the launcher's (compiled to dist/) and
 * one per bundle layer of Next's server. All must count into the
 * same metrics, so the registry is process-wide (lib/process-wide.ts) and whichever copy comes
 * first creates it. (prom-client stays outside the bundle, next.config.js, so every copy uses
 * one prom-client.) No `import 'server-only'`: the launcher's server is plain Node, where that
 * import throws; nothing here is imported by browser code (lib/import-graph.test.ts keeps it so).
 *
 * Labels are bounded sets that never carry a token, key, email or group id: a route *pattern*, an
 * environment, an operation, an outcome kind, a status.
 */
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import { processWide } from '@/lib/process-wide';

/** What an upstream call ended as: `success`, or the client's failure kind (UpstreamErrorKind). */
export type UpstreamOutcome = 'success' | string;

function createConsoleMetrics() {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const labelsOfRequest = ['method', 'route', 'status'] as const;
  const labelsOfUpstream = ['environment', 'operation', 'outcome'] as const;
  return {
    registry,
    httpRequests: new Counter({
      name: 'console_http_requests_total',
      help: 'Requests answered by the console, by method, route pattern and status.',
      labelNames: labelsOfRequest,
      registers: [registry],
    }),
    httpRequestDuration: new Histogram({
      name: 'console_http_request_duration_seconds',
      help: 'Time from a request arriving at the console to its answer being sent, by method, route pattern and status.',
      labelNames: labelsOfRequest,
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers: [registry],
    }),
    upstreamRequests: new Counter({
      name: 'console_upstream_requests_total',
      help: 'Calls to a User Group Service, by environment, operation and outcome (success or the failure kind: invalid_request, unauthorized, not_found, rate_limited, unreachable, timeout, malformed, failed = 5xx or another status).',
      labelNames: labelsOfUpstream,
      registers: [registry],
    }),
    upstreamRequestDuration: new Histogram({
      name: 'console_upstream_request_duration_seconds',
      help: 'Duration of calls to a User Group Service, by environment, operation and outcome.',
      labelNames: labelsOfUpstream,
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers: [registry],
    }),
    bulkRows: new Counter({
      name: 'console_bulk_rows_total',
      help: "Rows of bulk jobs settled, by environment, job kind and the row's status.",
      labelNames: ['environment', 'kind', 'status'] as const,
      registers: [registry],
    }),
    rateLimitRefusals: new Counter({
      name: 'console_rate_limit_refusals_total',
      help: 'Requests refused by a console rate limit (sign-in: password sign-ins, SSO starts and password changes; sso-callback).',
      labelNames: ['limit'] as const,
      registers: [registry],
    }),
    signInFailures: new Counter({
      name: 'console_sign_in_failures_total',
      help: 'Failed sign-ins, by method (password, passkey, sso) and reason (the error code).',
      labelNames: ['method', 'reason'] as const,
      registers: [registry],
    }),
    auditWriteFailures: new Counter({
      name: 'console_audit_write_failures_total',
      help: 'Audit entries that could not be written (record: the change was refused, 503) or completed (settle).',
      labelNames: ['stage'] as const,
      registers: [registry],
    }),
    auditStreamDelivered: new Counter({
      name: 'console_audit_stream_delivered_total',
      help: 'Audit entries (revisions) the audit stream delivered from this console (AUDIT_STREAM_URL).',
      registers: [registry],
    }),
    auditStreamFailures: new Counter({
      name: 'console_audit_stream_failures_total',
      help: "Batches of the audit stream the endpoint did not take, by reason (the endpoint's status, unreachable, timed out).",
      labelNames: ['reason'] as const,
      registers: [registry],
    }),
    auditStreamLag: new Gauge({
      name: 'console_audit_stream_lag_seconds',
      help: 'How long the oldest audit entry not yet delivered by the audit stream has waited (0: none waits).',
      registers: [registry],
    }),
    auditStreamPending: new Gauge({
      name: 'console_audit_stream_pending',
      help: "Audit entries (revisions) waiting in the audit stream's outbox (counted up to 100000).",
      registers: [registry],
    }),
    auditChainSealingRefused: new Gauge({
      name: 'console_audit_chain_sealing_refused',
      help: "1 while this console refuses to seal the audit log: the database's seals no longer reach its checkpoint (seals removed, the chain of seals broken, the database rolled back).",
      registers: [registry],
    }),
    auditChainUnsealedSeconds: new Gauge({
      name: 'console_audit_chain_unsealed_seconds',
      help: "How long, by this console's clock, audit entries have waited to be sealed with no seal moving on (seconds normally; over 300 the console logs an error and Verify fails).",
      registers: [registry],
    }),
    auditChainTampered: new Counter({
      name: 'console_audit_chain_tampered_total',
      help: 'Changes the audit sealer refused to seal, by kind (chain: the seals do not reach the checkpoint; settlement: a started entry changed where a settlement never changes it).',
      labelNames: ['kind'] as const,
      registers: [registry],
    }),
  };
}

export type ConsoleMetrics = ReturnType<typeof createConsoleMetrics>;

export function consoleMetrics(): ConsoleMetrics {
  return processWide('metrics', createConsoleMetrics);
}

const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

/** Any other method a client invents is one label, not one each. */
const methodLabel = (method: string | undefined): string =>
  method && METHODS.has(method) ? method : 'other';

/** Counts one answered request under its route pattern. */
export function recordConsoleRequest(
  method: string | undefined,
  route: string,
  status: number,
  seconds: number,
) {
  const metrics = consoleMetrics();
  const labels = { method: methodLabel(method), route, status: String(status) };
  metrics.httpRequests.inc(labels);
  metrics.httpRequestDuration.observe(labels, seconds);
}

/** Counts one call to an environment's service; `operation` is the client's (or `probe`). */
export function recordUpstreamCall(
  environment: string,
  operation: string,
  outcome: UpstreamOutcome,
  seconds: number,
) {
  const metrics = consoleMetrics();
  const labels = { environment, operation, outcome };
  metrics.upstreamRequests.inc(labels);
  metrics.upstreamRequestDuration.observe(labels, seconds);
}
