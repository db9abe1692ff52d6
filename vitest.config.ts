import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

/**
 * Test files that only compute: they start no server, open no database or Redis, spawn nothing, mock
 * nothing and neither read nor write process.env. They share one module cache per worker and run in
 * `npm run test:fast` alone. Every other test file is in the `unit` project below.
 */
/**
 * What holds the pages' weight rather than their behaviour, run by `npm run test:build` beside the
 * page budget (scripts/page-budget.ts) in test:e2e, not in test:unit nor test:fast: cn's class map is
 * checked against tailwind-merge's full configuration for every pair of the source's classes, which
 * was 81% of test:fast on a loaded machine.
 */
const buildTests = ['components/ui/cn.test.ts'];

/**
 * Test files that need a process of their own rather than a worker thread: they set process.umask(),
 * which Node refuses in worker threads.
 */
const processTests = ['lib/user-group-service/database-file.test.ts'];

const pureTests = [
  'app/**/*.test.ts',
  'components/**/*.test.{ts,tsx}',
  'bench/**/*.test.ts',
  'lib/audit/{csv,filters,fingerprint}.test.ts',
  'lib/auth/{origin,return-path}.test.ts',
  'lib/config/{env-example,listen-address,mail,scim,trusted-proxies}.test.ts',
  'lib/invitations/mail-message.test.ts',
  'lib/tokens/contract.test.ts',
  'lib/jobs/{csv,outcome-writer,pause-reasons,result-csv,send-row,vault}.test.ts',
  'lib/metrics/{access,route-pattern}.test.ts',
  'lib/server/{errors,request-body,route-params}.test.ts',
  'lib/browser-client/{failure-message,step-up-prompt}.test.ts',
  'lib/console-api/routes.test.ts',
  'lib/validation/field-errors.test.ts',
  'lib/{clock,clock-reads,environments,time,import-graph,json-text,plural,readme-promises,redact-url,roles,secret-file,source-size}.test.ts',
];

export default defineConfig({
  resolve: {
    alias: {
      '@': fileURLToPath(new URL('./', import.meta.url)),
      // `server-only` throws outside a React Server environment; tests run server code directly.
      'server-only': fileURLToPath(new URL('./lib/testing/server-only-stub.ts', import.meta.url)),
    },
  },
  test: {
    environment: 'node',
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Operator passwords hashed at a test cost in the test workers (the file says why and how).
    setupFiles: ['lib/testing/test-password-cost.ts'],
    // One worker per core (Vitest's own default leaves one core to itself: on 2 cores, one worker).
    // The files that slept on the clock (the runner's pace, the probe cache, the pacer, the leases)
    // move a test clock now (lib/clock.ts): no worker sits idle through a wait, so neither a third
    // worker nor a waiting-first order earns its keep, and Vitest's own order (longest last time
    // first) stands. Measured on this 2-core machine, 2026-11-26, shared with other agents' runs (load
    // averages of 1 to 13): before, 3 workers with the waiting files first, 47.9, 49.2, 64.6 and 71.1 s
    // (the tests' own time 95 s, 34 of it the pace test); after, 2 workers, 40.2 and 46.8 s at load
    // 1 to 8 (the tests' own time 40 s); 3 workers and 2 back to back at load 5 to 7: 65.0 and 67.6 s.
    maxWorkers: availableParallelism(),
    // Transformed modules kept on disk between runs (node_modules/.experimental-vitest-cache): a
    // route test imports the whole server, and its TypeScript need not be transformed again until it
    // changes. Measured 2026-11-28 on two route test files, one worker, at load 20: transform 5.4 and
    // 10.1 s without, 1.7 s with a warm cache (the imports' own evaluation is unchanged).
    // IMPORT_DURATIONS=1 prints the slowest imports of each file (where a run's time goes).
    experimental: {
      fsModuleCache: true,
      ...(process.env.IMPORT_DURATIONS ? { importDurations: { print: true, limit: 40 } } : {}),
    },
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          // The route tests set process.env and then import modules that read it once
          // (consoleServer(), lib/testing/route-harness.ts), so each file needs the project's own
          // modules fresh. It gets them without a fresh worker: lib/testing/fresh-modules.ts resets
          // Vitest's module registry before each file and puts back process.env and globalThis after
          // it, while node_modules (better-auth, kysely, pg: most of a route test's import) stay
          // loaded in the worker thread. Measured idle on this 2-core machine, 2026-11-28, 1,247
          // tests: a fresh forked worker per file, 65.1 and 69.7 s (imports 55 s summed); a fresh
          // thread per file, 58.7 s; one thread per worker with fresh modules, 34.8 s (imports 11.6 s).
          // Held order-independent by two runs in shuffled file order (seeds 7 and 42): all passed.
          pool: 'threads',
          isolate: false,
          setupFiles: ['lib/testing/test-password-cost.ts', 'lib/testing/fresh-modules.ts'],
          include: [
            'lib/**/*.test.ts',
            'app/**/*.test.ts',
            'components/**/*.test.{ts,tsx}',
            'bench/**/*.test.ts',
            'scripts/**/*.test.ts',
          ],
          exclude: ['**/node_modules/**', ...pureTests, ...buildTests, ...processTests],
        },
      },
      { extends: true, test: { name: 'process', pool: 'forks', include: processTests } },
      {
        extends: true,
        test: {
          name: 'pure',
          include: pureTests,
          exclude: ['**/node_modules/**', ...buildTests],
          isolate: false,
        },
      },
      { extends: true, test: { name: 'build', include: buildTests } },
    ],
  },
});
