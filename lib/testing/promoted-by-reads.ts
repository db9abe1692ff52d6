/**
 * How much of what a pool reads outlives V8's young-generation collections: the bytes they moved
 * into the old generation in a child process of its own (a dead object one pool promoted keeps the
 * next one's rows alive too) while it read 40,000 rows of a dozen short strings, a batch of 1,000 at
 * a time, three times over (what an export or the sealer does), after a first time to warm up.
 */
import { spawn } from 'node:child_process';
import { expect } from 'vitest';
import { POSTGRES_ADMIN_URL } from './console-test-database';

export type PoolUnderTest =
  /** lib/db/read-pool's. */
  | 'read pool'
  /** The console database's main connections (lib/db/console-database.ts). */
  | 'main pool'
  /** Kysely on a pg pool with pg's own query_timeout, as the read pool once was. */
  | 'pg with query_timeout'
  /** Kysely on a plain pg pool: pg's promise form, as the main connections once were. */
  | 'pg promise form';

async function promotedByReads(through: PoolUnderTest): Promise<number> {
  const script = `
    import v8 from 'node:v8';
    import { Kysely, PostgresDialect, sql } from 'kysely';
    import pg from 'pg';
    const { postgresReadPool } = await import('./lib/db/read-pool/postgres-read-pool.ts');
    const { openConsoleDatabase } = await import('./lib/db/console-database.ts');
    const url = ${JSON.stringify(POSTGRES_ADMIN_URL)};
    const through = ${JSON.stringify(through)};
    const onPool = (pool) => new Kysely({ dialect: new PostgresDialect({ pool }) });
    const reads =
      through === 'read pool' ? onPool(postgresReadPool(url, { limitMs: 5000 }))
      : through === 'main pool' ? openConsoleDatabase({ dialect: 'postgres', url }).db
      : through === 'pg with query_timeout' ? onPool(new pg.Pool({ connectionString: url, query_timeout: 6000 }))
      : onPool(new pg.Pool({ connectionString: url }));
    const batches = async () => {
      for (let from = 1; from <= 40000; from += 1000) {
        await sql\`select g as id, md5(g::text) as a, md5((g + 1)::text) as b, repeat('x', 40) as c,
          g::text as d, now()::text as e, md5((g + 2)::text) as f, 'production' as g
          from generate_series(\${from}::int, \${from + 999}::int) g\`.execute(reads);
      }
    };
    await batches();
    const profiler = new v8.GCProfiler();
    profiler.start();
    for (let round = 0; round < 3; round++) await batches();
    const oldSpace = (side) => side.heapSpaceStatistics.find((space) => space.spaceName === 'old_space').spaceUsedSize;
    const promoted = profiler.stop().statistics
      .filter((collection) => collection.gcType === 'Scavenge')
      .reduce((sum, collection) => sum + oldSpace(collection.afterGC) - oldSpace(collection.beforeGC), 0);
    await reads.destroy();
    process.stdout.write(String(promoted));`;
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  if (code !== 0 || !/^\d+$/.test(output)) {
    throw new Error(
      `the measuring process for the ${through} exited with ${code}, saying ${JSON.stringify(output)}`,
    );
  }
  return Number(output);
}

/**
 * Expects `pool` to promote under a quarter of what `control` (the pg form it replaced) does, and
 * the control over 4 MB: the measure saw promotion at all.
 */
export async function expectRowsDieYoung(pool: PoolUnderTest, control: PoolUnderTest): Promise<void> {
  const ours = await promotedByReads(pool);
  const theirs = await promotedByReads(control);
  expect(theirs).toBeGreaterThan(4 * 1024 * 1024);
  expect(ours).toBeLessThan(theirs / 4);
}
