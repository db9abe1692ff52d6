/**
 * `npm run bench -- scale` (and `scale-postgres`): the audit log and the directory at two sizes,
 * side by side, as a person meets them: two built consoles (dist/launcher/start.js, each with its
 * own service and database), one loaded small and one large in bulk SQL (bench/scale-load.ts),
 * asked the same requests through their real HTTP routes, interleaved (bench/scale-measure.ts).
 * Every figure must select rows (the no-match search: none), or the bench fails. Then, at the
 * large size, health and sign-in at rest and while the four heaviest run at once, and the console's
 * resident memory over three exports and once idle.
 *
 * Sizes: BENCH_SCALE_AUDIT_SMALL / BENCH_SCALE_AUDIT (audit entries, default 1M / 10M, the small
 * at least 100,000) and BENCH_SCALE_GROUPS_SMALL / BENCH_SCALE_GROUPS (default 100k / 1M);
 * BENCH_SCALE_ROUNDS (default 60); ports BENCH_SCALE_PORT and the next (default 3414, 3415);
 * BENCH_SCALE_TIMEOUT_MINUTES (default 60): past it everything started is stopped and the run fails;
 * BENCH_SCALE_PRUNE (default 0: none): that many of the large log's oldest entries pruned at the end
 * (bench/scale-prune.ts), health asked meanwhile.
 * BENCH_SCALE_CORES (default every): where the consoles run, `servers` for the pinned servers' core.
 */
import { spawn } from 'node:child_process';
import { sql } from 'kysely';
import { type ConsoleDatabase, type ConsoleDialect, openConsoleDatabase } from '@/lib/db/console-database';
import { createTestDatabaseLocation, type TestDatabaseLocation } from '@/lib/testing/console-test-database';
import { type BenchConsole, startBenchConsole } from './console-server';
import { type Cores, coresSaid, serverCommand } from './processes';
import { heaviest, type ScaleFigure } from './scale-figures';
import { addOperators, firstIdAt, loadAudit, loadDirectory, plantTokenAndVacuum } from './scale-load';
import {
  type ExportMemoryRun,
  exportMemory,
  measureSideBySide,
  responsivenessUnderLoad,
  type Sized,
  type UnderLoad,
} from './scale-measure';
import { type PruneRun, pruneAtScale } from './scale-prune';
import { MIN_AUDIT_ROWS, page50Cursor, RANGE, scaleRequests } from './scale-requests';

interface Size {
  audit: number;
  groups: number;
}

const envNumber = (name: string, fallback: number) => Number(process.env[name] ?? fallback);
const large: Size = {
  audit: envNumber('BENCH_SCALE_AUDIT', 10_000_000),
  groups: envNumber('BENCH_SCALE_GROUPS', 1_000_000),
};
const SIZES: Sized<Size> = {
  small: {
    audit: envNumber('BENCH_SCALE_AUDIT_SMALL', Math.round(large.audit / 10)),
    groups: envNumber('BENCH_SCALE_GROUPS_SMALL', Math.round(large.groups / 10)),
  },
  large,
};
/** The oldest groups, half the small directory at both sizes, whose names alone hold OLD_WORD. */
const OLD_GROUPS = Math.floor(SIZES.small.groups / 2);
/**
 * A p95 of 20 samples (the default until round 19) is their second slowest: one slow answer of the
 * machine's from a miss. Of 60 it is the 57th, and a round takes about a second.
 */
const ROUNDS = envNumber('BENCH_SCALE_ROUNDS', 60);
const PORT = envNumber('BENCH_SCALE_PORT', 3414);
const TIMEOUT_MS = envNumber('BENCH_SCALE_TIMEOUT_MINUTES', 60) * 60_000;
const SEAL_POLL_MS = 2_000;
/** Entries the pruning phase has the large console prune (0: no pruning phase). */
const PRUNE = envNumber('BENCH_SCALE_PRUNE', 0);
/**
 * The consoles run on every core, as a deployment does. Both on the servers' one core (until round
 * 18; `BENCH_SCALE_CORES=servers` to compare), each one's work beside its answers (its garbage
 * collector, its loops) took that core from the other's answers: 16% of answers took 1.5× their
 * median, 7% on every core (bench/README.md).
 */
const CORES: Cores = process.env.BENCH_SCALE_CORES === 'servers' ? 'servers' : 'every';

export interface ScaleBench {
  dialect: ConsoleDialect;
  sizes: Sized<Size>;
  rounds: number;
  /** Seconds to load each database, and for its console to seal the loaded entries. */
  setUp: Sized<{ loadSeconds: number; sealSeconds: number }>;
  figures: ScaleFigure[];
  underLoad: UnderLoad;
  exportMemory: ExportMemoryRun;
  prune: PruneRun | null;
}

interface Loaded {
  console: BenchConsole;
  location: TestDatabaseLocation;
  database: ConsoleDatabase;
  lastLoadedId: number;
  loadSeconds: number;
}

const seconds = (since: number) => Math.round((performance.now() - since) / 100) / 10;

/** `npm run migrate` as deployed (the compiled dist/launcher/migrate.js): schema and first admin. */
async function migrate(env: NodeJS.ProcessEnv): Promise<void> {
  const [command, ...args] = serverCommand('dist/launcher/migrate.js', [], { compiled: true });
  const child = spawn(command, args, { env, stdio: ['ignore', 'ignore', 'inherit'] });
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  if (code !== 0) throw new Error(`dist/launcher/migrate.js exited with ${code}`);
}

async function startLoaded(
  name: 'small' | 'large',
  size: Size,
  location: TestDatabaseLocation,
  port: number,
): Promise<Loaded> {
  let lastLoadedId = 0;
  let loadSeconds = 0;
  const target = await startBenchConsole(port, {
    env: location.env,
    cores: CORES,
    prepare: async (env) => {
      await migrate(env);
      const started = performance.now();
      console.info(`scale: loading the ${name} database: ${size.audit} audit entries, ${size.groups} groups`);
      const database = openConsoleDatabase(location.location);
      try {
        await loadAudit(database, size.audit, size.groups);
        await loadDirectory(database, size.groups, OLD_GROUPS);
        await addOperators(database);
        await plantTokenAndVacuum(database);
        const last = await sql<{ id: number }>`select max(id) as id from audit_event`.execute(database.db);
        lastLoadedId = Number(last.rows[0]?.id ?? 0);
      } finally {
        await database.close();
      }
      loadSeconds = seconds(started);
    },
  });
  return {
    console: target,
    location,
    database: openConsoleDatabase(location.location),
    lastLoadedId,
    loadSeconds,
  };
}

/** Until the console's sealer has sealed every loaded entry: a year's log is sealed as it is written. */
async function sealed({ database, lastLoadedId }: Loaded): Promise<number> {
  const started = performance.now();
  for (;;) {
    const row = await database.db
      .selectFrom('audit_seal')
      .select(sql<number>`max(through_id)`.as('through'))
      .executeTakeFirst();
    if (Number(row?.through ?? 0) >= lastLoadedId) return seconds(started);
    await new Promise((resolve) => setTimeout(resolve, SEAL_POLL_MS));
  }
}

export async function benchScale(dialect: ConsoleDialect = 'sqlite'): Promise<ScaleBench> {
  if (SIZES.small.audit < MIN_AUDIT_ROWS || SIZES.small.groups < 4242)
    throw new Error(
      `BENCH_SCALE_AUDIT_SMALL must be at least ${MIN_AUDIT_ROWS} (the figures' dates) and BENCH_SCALE_GROUPS_SMALL at least 4242 (the planted group acme-4242)`,
    );
  const locations: TestDatabaseLocation[] = [];
  const loaded: Loaded[] = [];
  const stopAll = async () => {
    for (const one of loaded.splice(0)) {
      await one.console.stop().catch(() => undefined);
      await one.database.close().catch(() => undefined);
    }
    for (const location of locations.splice(0)) await location.dispose().catch(() => undefined);
  };
  // The consoles run in process groups of their own: a bench stopped by its deadline or a signal
  // stops them before it goes.
  const abort = (why: string) => {
    console.error(`scale: ${why}: stopping the consoles and removing their databases`);
    void stopAll().finally(() => process.exit(1));
  };
  const deadline = setTimeout(
    () => abort(`past BENCH_SCALE_TIMEOUT_MINUTES (${TIMEOUT_MS / 60_000})`),
    TIMEOUT_MS,
  );
  const onSignal = (signal: NodeJS.Signals) => abort(`${signal}`);
  process.once('SIGTERM', onSignal).once('SIGINT', onSignal);
  try {
    const start = async (name: 'small' | 'large', port: number) => {
      const location = await createTestDatabaseLocation(`bench-scale-${name}`, dialect);
      locations.push(location);
      const one = await startLoaded(name, SIZES[name], location, port);
      loaded.push(one);
      return one;
    };
    // The small console seals its entries while the large database loads.
    const small = await start('small', PORT);
    const big = await start('large', PORT + 1);
    const sealSeconds = { small: await sealed(small), large: await sealed(big) };
    console.info(
      `scale: sealed (${sealSeconds.small} s, ${sealSeconds.large} s); measuring ${ROUNDS} rounds, the consoles on ${coresSaid(CORES)}`,
    );
    const cursors = async (one: Loaded) =>
      scaleRequests({
        page50Before: await page50Cursor(one.console),
        deepInRangeBefore: await firstIdAt(one.database, RANGE.middle),
      });
    const consoles = { small: small.console, large: big.console };
    const requests = { small: await cursors(small), large: await cursors(big) };
    const figures = await measureSideBySide(consoles, requests, ROUNDS);
    const byName = new Map(figures.map((figure) => [figure.request, figure]));
    const heavy = heaviest(
      requests.large.filter((ask) => ask.mayLoop),
      (ask) => byName.get(ask.name)?.large.p50Ms ?? 0,
      4,
    );
    console.info(`scale: health and sign-in at rest, then under ${heavy.map((ask) => ask.name).join(', ')}`);
    const underLoad = await responsivenessUnderLoad(big.console, heavy);
    const memory = await exportMemory(big.console);
    const prune =
      PRUNE > 0
        ? await pruneAtScale(
            big.database,
            PRUNE,
            async (env) => {
              await big.console.stop();
              big.console = await startBenchConsole(PORT + 1, {
                env: { ...big.location.env, ...env },
                cores: CORES,
              });
              return big.console;
            },
            TIMEOUT_MS,
          )
        : null;
    return {
      dialect,
      sizes: SIZES,
      rounds: ROUNDS,
      setUp: {
        small: { loadSeconds: small.loadSeconds, sealSeconds: sealSeconds.small },
        large: { loadSeconds: big.loadSeconds, sealSeconds: sealSeconds.large },
      },
      figures,
      underLoad,
      exportMemory: memory,
      prune,
    };
  } finally {
    clearTimeout(deadline);
    process.off('SIGTERM', onSignal).off('SIGINT', onSignal);
    await stopAll();
  }
}
