/**
 * The label a request is counted under: the App Router pattern it reaches (`/api/jobs/[id]`,
 * `/[environment]/groups/[id]`), never the path it was asked with, which carries group ids and job
 * ids. A path that matches no pattern is `unmatched`, and Next's build assets are one label: the
 * labels are as many as the app's routes, whatever a client sends.
 *
 * The patterns come from the build (`.next/app-path-routes-manifest.json`, Next's own list of the
 * app's pages and route handlers); matching ranks them as Next does: a literal segment before a
 * `[param]`, before a `[...catchAll]`, before an `[[...optional]]`.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';

const UNMATCHED_ROUTE = 'unmatched';
const NEXT_ASSETS_ROUTE = '/_next/[...asset]';

type Segment =
  | { kind: 'literal'; value: string }
  | { kind: 'param' }
  | { kind: 'catchAll' }
  | { kind: 'optionalCatchAll' };

interface CompiledPattern {
  pattern: string;
  segments: Segment[];
}

const RANK: Record<Segment['kind'], number> = { literal: 0, param: 1, catchAll: 2, optionalCatchAll: 3 };

function compile(pattern: string): CompiledPattern {
  const segments = pattern
    .split('/')
    .filter(Boolean)
    .map((part): Segment => {
      if (/^\[\[\.\.\.\w+\]\]$/.test(part)) return { kind: 'optionalCatchAll' };
      if (/^\[\.\.\.\w+\]$/.test(part)) return { kind: 'catchAll' };
      if (/^\[\w+\]$/.test(part)) return { kind: 'param' };
      return { kind: 'literal', value: part };
    });
  return { pattern, segments };
}

function compareSpecificity(a: CompiledPattern, b: CompiledPattern): number {
  for (let i = 0; i < Math.max(a.segments.length, b.segments.length); i++) {
    const left = a.segments[i];
    const right = b.segments[i];
    if (!left || !right) return left ? -1 : 1;
    const byKind = RANK[left.kind] - RANK[right.kind];
    if (byKind !== 0) return byKind;
  }
  return 0;
}

function matches(segments: Segment[], parts: string[]): boolean {
  for (let i = 0; i < segments.length; i++) {
    const segment = segments[i] as Segment;
    if (segment.kind === 'catchAll') return parts.length > i;
    if (segment.kind === 'optionalCatchAll') return true;
    const part = parts[i];
    if (part === undefined) return false;
    if (segment.kind === 'literal' && segment.value !== part) return false;
  }
  return parts.length === segments.length;
}

/** A request URL (path, query, or absolute form) to its path's segments, undecoded. */
function partsOf(url: string): string[] {
  let pathname = url.split('?')[0] ?? '/';
  if (!pathname.startsWith('/')) {
    try {
      pathname = new URL(url).pathname;
    } catch {
      return ['\0'];
    }
  }
  return pathname.split('/').filter(Boolean);
}

export type RoutePatternOf = (url: string) => string;

export function createRoutePatternMatcher(patterns: Iterable<string>): RoutePatternOf {
  const compiled = [...new Set(patterns)].map(compile).sort(compareSpecificity);
  return (url) => {
    const parts = partsOf(url);
    if (parts[0] === '_next') return NEXT_ASSETS_ROUTE;
    return compiled.find((candidate) => matches(candidate.segments, parts))?.pattern ?? UNMATCHED_ROUTE;
  };
}

/**
 * The app's page and route handler patterns from a build: `{"/api/jobs/[id]/route": "/api/jobs/[id]",
 * "/(console)/[environment]/page": "/[environment]", …}` — the values, route groups already removed.
 * Next's internal `/_not-found` is left out (it answers any path that matches nothing).
 */
export function readBuiltRoutePatterns(distDir: string): string[] {
  const file = path.join(distDir, 'app-path-routes-manifest.json');
  const manifest = JSON.parse(readFileSync(file, 'utf8')) as Record<string, string>;
  return Object.values(manifest).filter((pattern) => !pattern.startsWith('/_'));
}
