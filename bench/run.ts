/**
 * `npm run bench [-- service bulk console pages]`: loopback only, bounded in time. Prints a table
 * per section and writes bench/results.json. Every figure is a ratio against a baseline measured
 * in the same run, because these machines are shared and noisy.
 */
import { writeFile } from 'node:fs/promises';
import os from 'node:os';
import { benchBulk } from './bulk';
import { benchService } from './service';

const sections = process.argv.slice(2);
const wanted = (name: string) => sections.length === 0 || sections.includes(name);
const results: Record<string, unknown> = {
  measuredAt: new Date().toISOString(),
  machine: { cpus: os.cpus().length, node: process.version },
};

if (wanted('service')) {
  const service = await benchService();
  results.service = service;
  console.table(
    service.map((row) => ({
      scenario: row.scenario,
      'req/s': row.service.requestsPerSecond,
      'bare req/s': row.baseline.requestsPerSecond,
      ratio: row.ratio,
      'p50 ms': row.service.p50Ms,
      'p99 ms': row.service.p99Ms,
      'non-2xx': row.service.non2xx,
    })),
  );
}

if (wanted('bulk')) {
  const bulk = await benchBulk();
  results.bulk = bulk;
  console.table([
    { job: `${bulk.rows} get-or-create rows`, seconds: bulk.seconds, 'rows/s': bulk.rowsPerSecond },
  ]);
}

await writeFile(new URL('./results.json', import.meta.url), `${JSON.stringify(results, null, 2)}\n`);
console.info('wrote bench/results.json');
