/**
 * The job runner's pace in real time, the one check that waits for the clock (the unit tests move a
 * test clock instead: lib/jobs/runner-pace.test.ts): a get-or-create job at 180 requests a minute
 * against a service that allows 3 a second (burst 3), as a ratio to the same number of requests sent
 * straight through the typed client, each after its slot from a pacer of the same pace, in the same
 * run. Near 1 is the goal: the runner's eight workers keep the pace, no faster (the service's 429s
 * are counted: a few come at this pace on either side, as a vendor's fixed windows meet network
 * jitter, and each costs its Retry-After) and no slower. A failed row throws.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pino } from 'pino';
import { migrateAuditLog } from '../lib/audit/schema';
import { realClock } from '../lib/clock';
import { openConsoleDatabase } from '../lib/db/console-database';
import { migrateDirectory } from '../lib/directory/schema';
import { readGetOrCreateCsv } from '../lib/jobs/csv';
import { createGetOrCreateJob } from '../lib/jobs/drafts';
import { createPacer } from '../lib/jobs/pacer';
import { migrateJobs } from '../lib/jobs/schema';
import { sampleValue } from '../lib/testing/prometheus-text';
import { createUserGroupApi, UpstreamError, type UserGroupApi } from '../lib/user-group-api/client';
import { createApiKey, startUserGroupService } from '../lib/user-group-service';
import { runToEnd } from './run-to-end';

export interface PaceResult {
  rows: number;
  requestsPerMinute: number;
  serviceLimitPerSecond: number;
  clientRowsPerSecond: number;
  runnerRowsPerSecond: number;
  ratio: number;
  /** 429s the service answered each side (each tried again after its Retry-After). */
  clientRefusals: number;
  runnerRefusals: number;
}

const PACE = 180;
const LIMIT = { perSecond: 3, burst: 3 };
const CONCURRENCY = 8; // the runner's default (CONSOLE_JOB_CONCURRENCY)

async function refusals(serviceUrl: string): Promise<number> {
  const text = await (await fetch(`${serviceUrl}/metrics`)).text();
  return sampleValue(text, 'user_group_service_rate_limit_refusals_total');
}

/** The baseline: one request per slot, sent by the typed client itself; a 429 waits and tries again. */
async function throughPacedClient(api: UserGroupApi, rows: number): Promise<number> {
  const pacer = createPacer(PACE, undefined, realClock);
  const started = performance.now();
  for (let n = 0; n < rows; n++) {
    for (;;) {
      await pacer.wait();
      try {
        await api.getOrCreate({ user_group_id: `client-${n}` });
        break;
      } catch (error) {
        if (!(error instanceof UpstreamError) || error.kind !== 'rate_limited') throw error;
        await new Promise((resolve) => setTimeout(resolve, (error.details.retryAfterSeconds ?? 1) * 1000));
      }
    }
  }
  return rows / ((performance.now() - started) / 1000);
}

async function throughRunner(api: UserGroupApi, rows: number, dir: string): Promise<number> {
  const database = openConsoleDatabase({ dialect: 'sqlite', file: path.join(dir, 'console.sqlite') });
  try {
    await migrateAuditLog(database);
    await migrateDirectory(database);
    await migrateJobs(database);
    const csv = ['user_group_id', ...Array.from({ length: rows }, (_, n) => `runner-${n}`)].join('\n');
    const reading = readGetOrCreateCsv(csv);
    if (!reading.ok) throw new Error('bench: the CSV did not read cleanly');
    const id = await createGetOrCreateJob(database.db, {
      environment: 'Testing',
      source: 'pace.csv',
      owner: { id: 'bench', email: 'bench@example.com' },
      ...reading,
      clock: realClock,
    });
    const seconds = await runToEnd(database, api, id, { pace: PACE, concurrency: CONCURRENCY, pollMs: 20 });
    return rows / seconds;
  } finally {
    await database.close();
  }
}

export async function benchPace(rows = Number(process.env.BENCH_PACE_ROWS ?? 60)): Promise<PaceResult> {
  const dir = await mkdtemp(path.join(tmpdir(), 'ugs-pace-'));
  const database = path.join(dir, 'service.sqlite');
  // A key each: the two sides do not share the per-key limit.
  const keys = [
    await createApiKey({ database, environment: 'Testing', name: 'client' }),
    await createApiKey({ database, environment: 'Testing', name: 'runner' }),
  ];
  const service = await startUserGroupService({
    port: 0,
    database,
    encryptionKey: randomBytes(32).toString('hex'),
    rateLimit: LIMIT,
    redisUrl: null,
    logger: pino({ level: 'silent' }),
    clock: realClock,
  });
  try {
    const api = (key: string) => createUserGroupApi({ baseUrl: service.url, apiKey: key, clock: realClock });
    const clientRate = await throughPacedClient(api(keys[0]?.key as string), rows);
    const afterClient = await refusals(service.url);
    const runnerRate = await throughRunner(api(keys[1]?.key as string), rows, dir);
    return {
      rows,
      requestsPerMinute: PACE,
      serviceLimitPerSecond: LIMIT.perSecond,
      clientRowsPerSecond: Math.round(clientRate * 100) / 100,
      runnerRowsPerSecond: Math.round(runnerRate * 100) / 100,
      ratio: Math.round((runnerRate / clientRate) * 100) / 100,
      clientRefusals: afterClient,
      runnerRefusals: (await refusals(service.url)) - afterClient,
    };
  } finally {
    await service.close();
    await rm(dir, { recursive: true, force: true });
  }
}
