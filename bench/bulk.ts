import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { migrateAuditLog } from '../lib/audit/schema';
import { realClock } from '../lib/clock';
import { openConsoleDatabase } from '../lib/db/console-database';
import { migrateDirectory } from '../lib/directory/schema';
import { readGetOrCreateCsv } from '../lib/jobs/csv';
import { createGetOrCreateJob } from '../lib/jobs/drafts';
import { migrateJobs } from '../lib/jobs/schema';
import { createUserGroupApi, type UserGroupApi } from '../lib/user-group-api/client';
import { createApiKey } from '../lib/user-group-service';
import { median } from './pairs';
import { startServer } from './processes';
import { runToEnd } from './run-to-end';

export interface BulkResult {
  rows: number;
  rounds: number;
  concurrency: number;
  clientRowsPerSecond: number;
  runnerRowsPerSecond: number;
  ratio: number;
  goal: number;
}

const CONCURRENCY = 8; // the runner's default (CONSOLE_JOB_CONCURRENCY)
// With 3 rounds, always the client first, the ratio moved 11% between runs.
const ROUNDS = 5;

const row = (prefix: string, n: number) => ({
  user_group_id: `${prefix}-${n}`,
  name: `Customer ${n}`,
  mapping: { sales: `warehouse-${n % 7}` },
  properties: { plan: n % 2 ? 'pro' : 'free', seats: n % 50 },
});

async function throughClient(api: UserGroupApi, rows: number, prefix: string): Promise<number> {
  let next = 0;
  const started = performance.now();
  const worker = async () => {
    while (next < rows) {
      const answer = await api.getOrCreate(row(prefix, next++));
      if (!answer.new_user_group) throw new Error('bench: a row was not new: the figures would not compare');
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  return rows / ((performance.now() - started) / 1000);
}

async function throughRunner(api: UserGroupApi, rows: number, prefix: string, dir: string): Promise<number> {
  const database = openConsoleDatabase({
    dialect: 'sqlite',
    file: path.join(dir, `console-${prefix}.sqlite`),
  });
  try {
    await migrateAuditLog(database);
    await migrateDirectory(database);
    await migrateJobs(database);
    const csv = [
      'user_group_id,name,mapping,properties',
      ...Array.from({ length: rows }, (_, n) => {
        const { user_group_id, name, mapping, properties } = row(prefix, n);
        const cell = (value: unknown) => `"${JSON.stringify(value).replaceAll('"', '""')}"`;
        return `${user_group_id},${name},${cell(mapping)},${cell(properties)}`;
      }),
    ].join('\n');
    const reading = readGetOrCreateCsv(csv);
    if (!reading.ok || reading.invalid.length > 0) throw new Error('bench: the CSV did not read cleanly');
    const owner = { id: 'bench', email: 'bench@example.com' };
    const id = await createGetOrCreateJob(database.db, {
      environment: 'Testing',
      source: 'bench.csv',
      owner,
      ...reading,
      clock: realClock,
    });
    const seconds = await runToEnd(database, api, id, { pace: null, concurrency: CONCURRENCY, pollMs: 50 });
    return rows / seconds;
  } finally {
    await database.close();
  }
}

export async function benchBulk(rows = Number(process.env.BENCH_BULK_ROWS ?? 10_000)): Promise<BulkResult> {
  const dir = await mkdtemp(path.join(tmpdir(), 'ugs-bulk-'));
  const database = path.join(dir, 'service.sqlite');
  const { key } = await createApiKey({ database, environment: 'Testing', name: 'bulk' });
  const service = await startServer('bench/servers/user-group-service.ts', [database]);
  try {
    const api = createUserGroupApi({ baseUrl: service.url, apiKey: key, clock: realClock });
    await throughClient(api, 500, 'warm'); // connections, JIT, the service's caches
    const client: number[] = [];
    const runner: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const viaClient = () => throughClient(api, rows, `client-${round}`);
      const viaRunner = () => throughRunner(api, rows, `runner-${round}`, dir);
      if (round % 2 === 0) {
        client.push(await viaClient());
        runner.push(await viaRunner());
      } else {
        runner.push(await viaRunner());
        client.push(await viaClient());
      }
    }
    return {
      rows,
      rounds: ROUNDS,
      concurrency: CONCURRENCY,
      clientRowsPerSecond: Math.round(median(client)),
      runnerRowsPerSecond: Math.round(median(runner)),
      ratio:
        Math.round(median(runner.map((rate, round) => rate / (client[round] ?? Number.NaN))) * 100) / 100,
      goal: 0.8,
    };
  } finally {
    await service.stop();
    await rm(dir, { recursive: true, force: true });
  }
}
