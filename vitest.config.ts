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
    // Workers: Vitest's default (one fewer than the cores: one on a 2-core machine). Four workers
    // ran the suite in 0.53–0.65 of the time here (142–219 s against 268–338 s), but on a machine
    // loaded by other work the pace tests (runner-pace*.test.ts, within 10% of 3/s) ran slow and the
    // service CLI's spawns passed the 30 s test timeout: `npx vitest run --maxWorkers=4` when the
    // machine is yours. Tried again 2026-11-25 at load 15–23 (other work): two workers, with the
    // pace, pacer and lease files in a group of their own run together after the rest, took 610 s
    // against 785 s for one worker back to back, but five tests failed against one (fuzz and the
    // 200-token rotation passed 30 s; pacer.test.ts's Redis CLIENT PAUSE stalls every other Redis
    // client, the shared pace test's included, so those files must not run side by side).
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
          exclude: ['**/node_modules/**', ...pureTests],
        },
      },
      { extends: true, test: { name: 'pure', include: pureTests, isolate: false } },
    ],
  },
});
