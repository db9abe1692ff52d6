// @ts-check
/**
 * Compiles the server code that runs outside Next to JavaScript in dist/, so that production runs it
 * with plain `node` (no tsx, no TypeScript compiled at run time): the launcher (`npm start`, which
 * also serves the console), the console's server alone, the migration command and the service's
 * CLI. `npm run build` runs it after `next build`; `npm start`, `npm run service` and
 * `npm run migrate` run it first when dist/ is missing or stale (scripts/build-state.mjs).
 *
 * esbuild, because it is already installed (tsx runs on it), bundles the four entries in about a
 * second and resolves the `@/` paths from tsconfig.json; tsc cannot rewrite those paths, nor add the
 * file extensions Node's ESM loader needs. The packages are bundled too, apart from those below:
 * loading them from node_modules file by file (better-auth, kysely and zod are hundreds of ES
 * modules) took the launcher 1.0-1.1 s of CPU before its first line, bundled 0.3 s
 * (bench/README.md, "Footprint").
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, stop } from 'esbuild';
import { serverMetafile, serverOutDir } from './build-state.mjs';

/** Output (without .js) → source. */
export const serverEntries = {
  'launcher/start': 'lib/launcher/start.ts',
  'launcher/console-server': 'lib/launcher/console-server.ts',
  'launcher/migrate': 'lib/launcher/migrate.ts',
  'service/cli': 'lib/user-group-service/cli.ts',
  'audit/cli': 'lib/audit-chain/cli.ts',
};

/**
 * Loaded from node_modules at run time: Next (it loads its own files and the build in .next),
 * better-sqlite3 (a native addon), pino (its transports run files in worker threads) and pg's
 * optional native binding.
 */
const external = ['next', 'better-sqlite3', 'pino', 'pg-native'];

/**
 * @param {string} [root]
 * @returns {Promise<void>}
 */
export async function buildServer(root = process.cwd()) {
  const outdir = path.join(root, serverOutDir);
  rmSync(outdir, { recursive: true, force: true });
  mkdirSync(outdir, { recursive: true });
  const result = await build({
    absWorkingDir: root,
    entryPoints: Object.entries(serverEntries).map(([out, source]) => ({ in: source, out })),
    outdir,
    bundle: true,
    external,
    platform: 'node',
    format: 'esm',
    target: 'node20.19',
    // Modules shared by the entries (config, database, service) go in chunks, once.
    splitting: true,
    chunkNames: 'chunks/[name]-[hash]',
    // CommonJS packages bundled into ES modules still call require() for Node's built-ins.
    banner: {
      js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
    },
    sourcemap: 'linked',
    metafile: true,
    logLevel: 'warning',
  }).finally(() =>
    // esbuild's service process would otherwise live as long as this one: under `npm start`, the
    // whole life of the console (about 200 MB).
    stop(),
  );
  // Written last: its time is the build's, for staleServerBuild.
  writeFileSync(path.join(root, serverMetafile), JSON.stringify(result.metafile));
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const started = performance.now();
  await buildServer();
  process.stderr.write(
    `compiled the launcher, the console's server, the migration and the service CLI to ${serverOutDir}/ in ${Math.round(performance.now() - started)} ms\n`,
  );
}
