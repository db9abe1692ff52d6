/**
 * The audit stream alone in a process of its own, for the crash test (streamer-crash.test.ts): it
 * streams the database of STREAM_DATABASE (a ConsoleDatabaseLocation, JSON) to STREAM_URL until it
 * is killed. Run as `node --import tsx lib/audit-stream/stream-child.ts`.
 */
import { realClock } from '@/lib/clock';
import { openConsoleDatabase } from '@/lib/db/console-database';
import { consoleMetrics } from '@/lib/metrics/console-metrics';
import { startAuditStreamer } from './streamer';

const env = (name: string): string => {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set`);
  return value;
};

const database = openConsoleDatabase(JSON.parse(env('STREAM_DATABASE')));
startAuditStreamer({
  db: database.db,
  config: {
    url: new URL(env('STREAM_URL')),
    token: null,
    format: 'ndjson',
    batchSize: Number(env('STREAM_BATCH_SIZE')),
  },
  clock: realClock,
  metrics: consoleMetrics(),
  log: () => {},
  timing: JSON.parse(env('STREAM_TIMING')),
});
process.stdout.write('streaming\n');
