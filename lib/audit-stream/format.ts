/**
 * A batch as the endpoint takes it (AUDIT_STREAM_FORMAT):
 * - `ndjson` (the default): one object per line, `Authorization: Bearer <token>`;
 * - `splunk`: Splunk HEC's event format (`/services/collector/event`): one `{time, source,
 *   sourcetype, event}` per line, `Authorization: Splunk <token>`;
 * - `datadog`: Datadog's logs intake (`/api/v2/logs`): a JSON array, `DD-API-KEY: <token>`, each log
 *   with `ddsource`, `service` and `message` (the one line Datadog's log schema requires) beside the
 *   entry's fields (Datadog reads them as attributes).
 * Every object keeps its idempotency key. The token goes in a header only, never in the URL.
 */
import type { AuditStreamFormat } from '@/lib/config/audit-stream';

export interface FormattedBatch {
  contentType: string;
  body: string;
  headers: Record<string, string>;
}

const SOURCE = 'user-group-console';

/** A line a person reads in Datadog's log list: what, how it ended, by whom (never a token). */
function datadogMessage(object: { kind: string } & Record<string, unknown>): string {
  if (object.kind === 'audit.seal')
    return `audit seal ${String(object.id)} (entries through ${String(object.through_id)})`;
  const by = typeof object.operator_email === 'string' ? ` by ${object.operator_email}` : '';
  return `${String(object.action)} ${String(object.outcome)}${by}`;
}

export function formatBatch(
  format: AuditStreamFormat,
  objects: Array<{ at: string; idempotency_key: string; kind: string } & Record<string, unknown>>,
  token: string | null,
): FormattedBatch {
  const keys = objects.map((object) => object.idempotency_key);
  // The batch's own key: its first and last objects' (the same batch sent again has the same).
  const batchKey = `${keys[0]}..${keys.at(-1)}`;
  if (format === 'splunk')
    return {
      contentType: 'application/json',
      body: objects
        .map((object) =>
          JSON.stringify({
            time: Date.parse(object.at) / 1000,
            source: SOURCE,
            sourcetype: `${SOURCE}:${object.kind}`,
            event: object,
          }),
        )
        .join('\n'),
      headers: { 'idempotency-key': batchKey, ...(token ? { authorization: `Splunk ${token}` } : {}) },
    };
  if (format === 'datadog')
    return {
      contentType: 'application/json',
      body: JSON.stringify(
        objects.map((object) => ({
          ddsource: SOURCE,
          service: SOURCE,
          message: datadogMessage(object),
          ...object,
        })),
      ),
      headers: { 'idempotency-key': batchKey, ...(token ? { 'dd-api-key': token } : {}) },
    };
  return {
    contentType: 'application/x-ndjson',
    body: `${objects.map((object) => JSON.stringify(object)).join('\n')}\n`,
    headers: { 'idempotency-key': batchKey, ...(token ? { authorization: `Bearer ${token}` } : {}) },
  };
}
