import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

/**
 * Test files that only compute: they start no server, open no database or Redis, spawn nothing, mock
 * nothing and neither read nor write process.env. They share one module cache per worker
 * (`isolate: false`), which saves each of them a fresh worker and a fresh import of its modules.
 * Every other test file runs isolated, as before: the route tests set process.env and then import
 * modules that read it once (consoleServer(), lib/testing/route-harness.ts), so they need their own.
 * A new test file is isolated unless it is added here.
 */
const pureTests = [
  'app/**/*.test.ts',
  'components/**/*.test.{ts,tsx}',
  'bench/**/*.test.ts',
  'lib/audit/{csv,filters,fingerprint}.test.ts',
  'lib/auth/{origin,return-path}.test.ts',
  'lib/config/{listen-address,trusted-proxies}.test.ts',
  'lib/console-api/tokens.test.ts',
  'lib/jobs/{csv,outcome-writer,pause-reasons,result-csv,send-row,vault}.test.ts',
  'lib/metrics/{access,route-pattern}.test.ts',
  'lib/server/{decode-param,errors,request-body}.test.ts',
  'lib/validation/field-errors.test.ts',
  'lib/{environments,import-graph,json-text,plural,redact-url,roles,secret-file}.test.ts',
];

/**
 * Test files that mostly wait, holding a wall-clock figure to a tolerance that CPU contention can
 * break: the job runner's pace (within 10% of 3/s against a rate-limited service, ~35 s each), the
 * pacer's slots (within 5–10%), leases of 300 ms. They run after everything else, all at once and
 * with none of the suite's other files beside them, so that their waits overlap instead of adding
 * up (about 90 s one after another).
 */
const timingTests = ['lib/jobs/{lease,pacer,runner-pace,runner-pace-shared}.test.ts'];

/**
 * Workers for the rest. Most of the suite's time is waiting (servers, sockets, timers, child
 * processes), not computing, so even on 2 cores four workers beat Vitest's default of one
 * (cores − 1). See the figures below.
 */
const WORKERS = 2;

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
    // Figures: see the comment on WORKERS.
    projects: [
      {
        extends: true,
        test: {
          name: 'isolated',
          include: [
            'lib/**/*.test.ts',
            'app/**/*.test.ts',
            'components/**/*.test.{ts,tsx}',
            'bench/**/*.test.ts',
          ],
          exclude: ['**/node_modules/**', ...pureTests, ...timingTests],
          maxWorkers: WORKERS,
        },
      },
      { extends: true, test: { name: 'pure', include: pureTests, isolate: false, maxWorkers: WORKERS } },
      {
        extends: true,
        test: {
          name: 'timing',
          include: timingTests,
          sequence: { groupOrder: 1 },
          maxWorkers: 4,
        },
      },
    ],
  },
});
