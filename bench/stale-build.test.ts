import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { staleBuild, staleServerBuild } from './stale-build';

const roots: string[] = [];
afterEach(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
});

/** A tree with one source file and a build, each written at the given time (seconds). */
function tree({ sourceAt, builtAt, testAt }: { sourceAt: number; builtAt?: number; testAt?: number }) {
  const root = mkdtempSync(path.join(tmpdir(), 'stale-build-'));
  roots.push(root);
  const write = (file: string, at: number) => {
    mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    writeFileSync(path.join(root, file), '');
    utimesSync(path.join(root, file), at, at);
  };
  write('app/page.tsx', sourceAt);
  if (builtAt !== undefined) write('.next/BUILD_ID', builtAt);
  if (testAt !== undefined) write('lib/thing.test.ts', testAt);
  return root;
}

describe('staleBuild', () => {
  it('names a missing build', () => {
    expect(staleBuild(tree({ sourceAt: 1_000 }))).toBe('no build in .next');
  });

  it('names the source file newer than the build', () => {
    expect(staleBuild(tree({ sourceAt: 2_000, builtAt: 1_000 }))).toBe(
      `${path.join('app', 'page.tsx')} is newer than the build in .next`,
    );
  });

  it('passes a build newer than every source, whatever the tests', () => {
    expect(staleBuild(tree({ sourceAt: 1_000, builtAt: 2_000, testAt: 3_000 }))).toBeNull();
  });
});

describe('staleServerBuild', () => {
  /** A tree whose compiled server code (dist/metafile.json, written at builtAt) bundled lib/a.ts. */
  function compiled({ sourceAt, builtAt }: { sourceAt: number; builtAt?: number }) {
    const root = mkdtempSync(path.join(tmpdir(), 'stale-server-build-'));
    roots.push(root);
    const write = (file: string, at: number, text = '') => {
      mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
      writeFileSync(path.join(root, file), text);
      utimesSync(path.join(root, file), at, at);
    };
    for (const file of ['lib/a.ts', 'package-lock.json', 'tsconfig.json', 'scripts/server-build.mjs'])
      write(file, sourceAt);
    if (builtAt !== undefined)
      write('dist/metafile.json', builtAt, JSON.stringify({ inputs: { 'lib/a.ts': {} }, outputs: {} }));
    return root;
  }

  it('names missing compiled code', () => {
    expect(staleServerBuild(compiled({ sourceAt: 1_000 }))).toBe('no compiled server code in dist');
  });

  it('names a bundled file newer than the build', () => {
    expect(staleServerBuild(compiled({ sourceAt: 2_000, builtAt: 1_000 }))).toBe(
      'lib/a.ts is newer than the build in dist',
    );
  });

  it('names a bundled file that is gone', () => {
    const root = compiled({ sourceAt: 1_000, builtAt: 2_000 });
    rmSync(path.join(root, 'lib/a.ts'));
    expect(staleServerBuild(root)).toBe('lib/a.ts is gone since the build in dist');
  });

  it('passes a build newer than every file it bundled', () => {
    expect(staleServerBuild(compiled({ sourceAt: 1_000, builtAt: 2_000 }))).toBeNull();
  });
});
