import { redactUrlCredentials } from '@/lib/redact-url';
import type { ConsoleDatabaseLocation } from './console-database';

/** The console database as a log line may name it: the file, or the PostgreSQL URL without its credentials. */
export function describeDatabase(location: ConsoleDatabaseLocation): string {
  return location.dialect === 'postgres'
    ? `PostgreSQL ${redactUrlCredentials(location.url)}`
    : `SQLite ${location.file}`;
}
