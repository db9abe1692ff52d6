/**
 * A batch as the endpoint takes it (AUDIT_STREAM_FORMAT):
 * - `ndjson` (the default): one object per line, `Authorization: Bearer <token>`;
 * - `splunk`: Splunk HEC's event format (`/services/collector/event`): one `{time, source,
 *   sourcetype, event}` per line, `Authorization: Splunk <token>`;
 * - `datadog`: Datadog's logs intake (`/api/v2/logs`): a JSON array, `DD-API-KEY: <token>`, each log
 *   with `ddsource` and `service` beside the entry's fields (Datadog reads them as attributes).
 * Every object keeps its idempotency key. The token goes in a header only, never in the URL.
 */
import type { AuditStreamFormat } from '@/lib/config/audit-stream';

export interface FormattedBatch {
  contentType: string;
  body: string;
  headers: Record<string, string>;
}

const SOURCE = 'user-group-console';

export function formatBatch(
  format: AuditStreamFormat,
  objects: Array<{ at: string; idempotency_key: string; kind: string }>,
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
