/**
 * The built-in User Group Service's metrics, read at its `/metrics`. Each running service has its
 * own registry (the tests run several in one process, and the launcher runs the embedded one
 * beside its own work); the process's metrics (collectDefaultMetrics: CPU, memory, event loop, GC)
 * are collected once per process and added to every scrape. Labels never carry a key, a token or a
 * group id: the route is one of the service's fixed paths or `unmatched`.
 */
import { Counter, collectDefaultMetrics, Histogram, Registry } from 'prom-client';
import { processWide } from '../process-wide';

/** One per process, however many services it runs. */
function processRegistry(): Registry {
  return processWide('service-process-metrics', () => {
    const registry = new Registry();
    collectDefaultMetrics({ register: registry });
    return registry;
  });
}

const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

export function createServiceMetrics(routes: readonly string[]) {
  const registry = new Registry();
  const known = new Set(routes);
  const labelNames = ['method', 'route', 'status'] as const;
  const requests = new Counter({
    name: 'user_group_service_http_requests_total',
    help: 'Requests answered by the service, by method, route and status.',
    labelNames,
    registers: [registry],
  });
  const duration = new Histogram({
    name: 'user_group_service_http_request_duration_seconds',
    help: 'Time from a request arriving at the service to its answer, by method, route and status.',
    labelNames,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
    registers: [registry],
  });
  const rateLimitRefusals = new Counter({
    name: 'user_group_service_rate_limit_refusals_total',
    help: 'Requests refused (429) by the per-API-key rate limit.',
    registers: [registry],
  });
  const apiKeyRefusals = new Counter({
    name: 'user_group_service_api_key_refusals_total',
    help: 'Requests refused (401) for a missing, unknown or revoked API key.',
    registers: [registry],
  });
  const process = processRegistry();
  return {
    /** The content type of `text()`. */
    contentType: registry.contentType,
    request(method: string | undefined, path: string, status: number, seconds: number) {
      const labels = {
        method: method && METHODS.has(method) ? method : 'other',
        route: known.has(path) ? path : 'unmatched',
        status: String(status),
      };
      requests.inc(labels);
      duration.observe(labels, seconds);
    },
    rateLimitRefusal: () => rateLimitRefusals.inc(),
    apiKeyRefusal: () => apiKeyRefusals.inc(),
    /** This service's metrics and the process's, in the Prometheus text format. */
    async text(): Promise<string> {
      return `${await registry.metrics()}\n${await process.metrics()}`;
    },
  };
}

export type ServiceMetrics = ReturnType<typeof createServiceMetrics>;
