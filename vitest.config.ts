import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

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
  'lib/tokens/contract.test.ts',
  'lib/jobs/{csv,outcome-writer,pause-reasons,result-csv,send-row,vault}.test.ts',
  'lib/metrics/{access,route-pattern}.test.ts',
  'lib/server/{errors,request-body,route-params}.test.ts',
  'lib/browser-client/step-up-prompt.test.ts',
  'lib/validation/field-errors.test.ts',
  'lib/{environments,import-graph,json-text,plural,redact-url,roles,secret-file}.test.ts',
];

/**
 * Test files that spend most of their time waiting on a clock, longest first: the runner's pace at
 * 3 requests a second (34 s), readiness waiting out the 5 s probe cache twice, the shared pacer's
 * slots, the service CLI's child processes, a revoked key's cache lifetime. They start first, so their
 * waiting overlaps the other files' work instead of ending the run.
 */
const waitingTests = [
  'lib/jobs/runner-pace.test.ts',
  'lib/launcher/console-metrics.test.ts',
  'lib/jobs/pacer.test.ts',
  'lib/user-group-service/cli.test.ts',
  'lib/user-group-service/instances.test.ts',
];
// A renamed file would quietly lose its place at the front: say so instead.
for (const file of waitingTests) {
  if (!existsSync(new URL(file, import.meta.url))) throw new Error(`vitest.config.ts: no ${file}`);
}

class WaitingFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rank = (file: TestSpecification) => {
      const at = waitingTests.indexOf(path.relative(import.meta.dirname, file.moduleId));
      return at === -1 ? waitingTests.length : at;
    };
    // Array.prototype.sort is stable: the rest keep Vitest's own order (longest last time first).
    return (await super.sort(files)).sort((a, b) => rank(a) - rank(b));
  }
}

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
    // One worker per core, and one more for the waiting files above: with them first, one worker
    // mostly sleeps through the pace test while the others keep both cores busy. (Measured on this
    // 2-core machine, 2026-11-26, idle: one worker 163 s; three, waiting files first, 60 s.)
    maxWorkers: availableParallelism() + 1,
    sequence: { sequencer: WaitingFirstSequencer },
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
