/**
 * A 10,000-row get-or-create job against the embedded service, through the console's own typed
 * client, 32 requests in flight: rows per second end to end (validation, HTTP, storage).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createUserGroupApi } from '../lib/user-group-api/client';
import { createApiKey } from '../lib/user-group-service';
import { startServer } from './processes';

export interface BulkResult {
  rows: number;
  seconds: number;
  rowsPerSecond: number;
  created: number;
}

export async function benchBulk(rows = Number(process.env.BENCH_BULK_ROWS ?? 10_000)): Promise<BulkResult> {
  const dir = await mkdtemp(path.join(tmpdir(), 'ugs-bulk-'));
  const database = path.join(dir, 'service.sqlite');
  const { key } = await createApiKey({ database, environment: 'Testing', name: 'bulk' });
  const service = await startServer('bench/servers/user-group-service.ts', [database]);
  try {
    const api = createUserGroupApi({ baseUrl: service.url, apiKey: key });
    let next = 0;
    let created = 0;
    const started = performance.now();
    const worker = async () => {
      while (next < rows) {
        const row = next++;
        const answer = await api.getOrCreate({
          user_group_id: `customer-${row}`,
          name: `Customer ${row}`,
          mapping: { sales: `warehouse-${row % 7}` },
          properties: { plan: row % 2 ? 'pro' : 'free', seats: row % 50 },
        });
        if (answer.new_user_group) created++;
      }
    };
    await Promise.all(Array.from({ length: 32 }, worker));
    const seconds = (performance.now() - started) / 1000;
    return {
      rows,
      seconds: Math.round(seconds * 100) / 100,
      rowsPerSecond: Math.round(rows / seconds),
      created,
    };
  } finally {
    await service.stop();
    await rm(dir, { recursive: true, force: true });
  }
}
