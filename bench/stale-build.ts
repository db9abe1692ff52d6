import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

/** What goes into `next build`: the app's source folders and the files that configure the build. */
const sources = [
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

/** Why the build in .next is not the code in the tree (a missing build, a newer file), or null. */
export function staleBuild(root = process.cwd()): string | null {
  const buildId = path.join(root, '.next', 'BUILD_ID');
  if (!existsSync(buildId)) return 'no build in .next';
  const builtAt = statSync(buildId).mtimeMs;
  const newer = newestFile(sources.map((source) => path.join(root, source)));
  if (newer && newer.mtimeMs > builtAt) {
    return `${path.relative(root, newer.file)} is newer than the build in .next`;
  }
  return null;
}

function newestFile(paths: string[]): { file: string; mtimeMs: number } | undefined {
  let newest: { file: string; mtimeMs: number } | undefined;
  const visit = (file: string) => {
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
