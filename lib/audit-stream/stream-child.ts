/**
 * The audit stream alone in a process of its own, for the crash test (streamer-crash.test.ts): it
 * streams the database of STREAM_DATABASE (a ConsoleDatabaseLocation, JSON) to STREAM_URL until it
 * is killed, or stopped by SIGTERM (then the batch in hand is acknowledged first). Its clock is a
 * testClock that moves on whenever the streamer sleeps: a dead console's lease runs out after as many
 * polls as it lasts, not after real seconds. Every child starts it at the same moment (testClock's
 * start), as the test's own clock does. Run as `node --import tsx lib/audit-stream/stream-child.ts`.
 */
import { testClock } from '@/lib/clock';
import { openConsoleDatabase } from '@/lib/db/console-database';
import { consoleMetrics } from '@/lib/metrics/console-metrics';
import { startAuditStreamer } from './streamer';
import { keepTime } from './test-receiver';

const env = (name: string): string => {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set`);
  return value;
};

const clock = testClock();
const database = openConsoleDatabase(JSON.parse(env('STREAM_DATABASE')));
const streamer = startAuditStreamer({
  db: database.db,
  config: {
    url: new URL(env('STREAM_URL')),
    token: null,
    format: 'ndjson',
    batchSize: Number(env('STREAM_BATCH_SIZE')),
  },
  clock,
  metrics: consoleMetrics(),
  log: () => {},
  timing: JSON.parse(env('STREAM_TIMING')),
});
const time = keepTime(clock);
process.once('SIGTERM', async () => {
  await streamer.stop();
  time.stop();
  await database.close();
  process.exit(0);
});
process.stdout.write('streaming\n');
