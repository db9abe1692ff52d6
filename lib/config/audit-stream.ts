import { z } from 'zod';
import { ConfigError, httpUrl, optional, type ParsedEnv } from './env-values';

/** How the stream's batches are shaped and authenticated (lib/audit-stream/format.ts). */
const auditStreamFormats = ['ndjson', 'splunk', 'datadog'] as const;
export type AuditStreamFormat = (typeof auditStreamFormats)[number];

export interface AuditStreamConfig {
  /** Where every audit entry is delivered (POST, a batch at a time). */
  url: URL;
  /** Sent as `Authorization: Bearer` (Splunk: `Authorization: Splunk`, Datadog: `DD-API-KEY`); never logged. */
  token: string | null;
  format: AuditStreamFormat;
  /** Entries per request at most. */
  batchSize: number;
}

/** The audit log's stream to a SIEM (lib/audit-stream): unset, nothing is streamed. */
export const auditStreamEnv = {
  AUDIT_STREAM_URL: optional(httpUrl('AUDIT_STREAM_URL')),
  AUDIT_STREAM_TOKEN: optional(z.string()),
  AUDIT_STREAM_FORMAT: optional(
    z.enum(auditStreamFormats, { error: 'AUDIT_STREAM_FORMAT must be ndjson, splunk or datadog' }),
  ),
  AUDIT_STREAM_BATCH_SIZE: optional(
    z.coerce
      .number({ error: 'AUDIT_STREAM_BATCH_SIZE must be a number of entries' })
      .int({ error: 'AUDIT_STREAM_BATCH_SIZE must be a whole number of entries' })
      .min(1, { error: 'AUDIT_STREAM_BATCH_SIZE must be at least 1' })
      // Datadog's intake takes 1,000 logs per request at most.
      .max(1_000, { error: 'AUDIT_STREAM_BATCH_SIZE must be at most 1000' }),
  ),
  /** Plain http to a host other than this machine's loopback: only when said out loud. */
  AUDIT_STREAM_ALLOW_HTTP: optional(z.enum(['true', 'false', '1', '0'])).transform(
    (value) => value === 'true' || value === '1',
  ),
};

const LOOPBACK = new Set(['127.0.0.1', '[::1]', 'localhost']);

export function auditStreamConfig(settings: ParsedEnv<typeof auditStreamEnv>): AuditStreamConfig | null {
  const url = settings.AUDIT_STREAM_URL;
  if (url === undefined) {
    if (settings.AUDIT_STREAM_TOKEN !== undefined)
      throw new ConfigError('AUDIT_STREAM_TOKEN is set without AUDIT_STREAM_URL.');
    return null;
  }
  const endpoint = new URL(url);
  if (endpoint.protocol === 'http:' && !LOOPBACK.has(endpoint.hostname) && !settings.AUDIT_STREAM_ALLOW_HTTP)
    throw new ConfigError(
      'AUDIT_STREAM_URL must be https (plain http only to 127.0.0.1, [::1] or localhost, or with AUDIT_STREAM_ALLOW_HTTP=true).',
    );
  if (endpoint.username || endpoint.password)
    throw new ConfigError('AUDIT_STREAM_URL must not carry credentials: set AUDIT_STREAM_TOKEN.');
  return {
    url: endpoint,
    token: settings.AUDIT_STREAM_TOKEN ?? null,
    format: settings.AUDIT_STREAM_FORMAT ?? 'ndjson',
    batchSize: settings.AUDIT_STREAM_BATCH_SIZE ?? 200,
  };
}
