// @ts-check
/**
 * Whether the build is the code in the tree, for `npm start` (scripts/run-compiled.mjs) and the bench.
 * Plain JavaScript: it decides whether to compile, so it runs before anything is compiled, without
 * tsx. Two builds, each with its own answer:
 * - the console (`next build`, .next/BUILD_ID) against the app's sources and build configuration;
 * - the server code (scripts/server-build.mjs, dist/) against the files esbuild bundled into it,
 *   listed in its metafile, and the lock file (the packages it imports at run time).
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

/** What goes into `next build`: the app's source folders and the files that configure the build. */
const consoleSources = [
  'app',
  'components',
  'lib',
  'proxy.ts',
  'next.config.js',
  'package-lock.json',
  'postcss.config.mjs',
];

/** Tests and notes are not built. */
const ignored = /\.test\.tsx?$|\.md$/;

/** Where scripts/server-build.mjs writes, and the metafile that records what it bundled. */
export const serverOutDir = 'dist';
export const serverMetafile = path.join(serverOutDir, 'metafile.json');

/**
 * Why the console build in .next is not the code in the tree (a missing build, a newer file), or null.
 * @param {string} [root]
 * @returns {string | null}
 */
export function staleBuild(root = process.cwd()) {
  const buildId = path.join(root, '.next', 'BUILD_ID');
  if (!existsSync(buildId)) return 'no build in .next';
  const builtAt = statSync(buildId).mtimeMs;
  const newer = newestFile(consoleSources.map((source) => path.join(root, source)));
  if (newer && newer.mtimeMs > builtAt) {
    return `${path.relative(root, newer.file)} is newer than the build in .next`;
  }
  return null;
}

/**
 * Why the compiled server code in dist/ is not the code in the tree, or null.
 * @param {string} [root]
 * @returns {string | null}
 */
export function staleServerBuild(root = process.cwd()) {
  const metafile = path.join(root, serverMetafile);
  if (!existsSync(metafile)) return `no compiled server code in ${serverOutDir}`;
  const builtAt = statSync(metafile).mtimeMs;
  /** @type {{ inputs?: Record<string, unknown> }} */
  const meta = JSON.parse(readFileSync(metafile, 'utf8'));
  const inputs = [
    ...Object.keys(meta.inputs ?? {}),
    'package-lock.json',
    'tsconfig.json',
    'scripts/server-build.mjs',
  ];
  for (const input of inputs) {
    const file = path.join(root, input);
    if (!existsSync(file)) return `${input} is gone since the build in ${serverOutDir}`;
    if (statSync(file).mtimeMs > builtAt) return `${input} is newer than the build in ${serverOutDir}`;
  }
  return null;
}

/**
 * @param {string[]} paths
 * @returns {{ file: string, mtimeMs: number } | undefined}
 */
function newestFile(paths) {
  /** @type {{ file: string, mtimeMs: number } | undefined} */
  let newest;
  /** @param {string} file */
  const visit = (file) => {
    if (!existsSync(file)) return;
    const stat = statSync(file);
    if (stat.isDirectory()) {
      for (const entry of readdirSync(file)) visit(path.join(file, entry));
    } else if (!ignored.test(file) && (!newest || stat.mtimeMs > newest.mtimeMs)) {
      newest = { file, mtimeMs: stat.mtimeMs };
    }
  };
  for (const file of paths) visit(file);
  return newest;
}
