import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * The console's routes as the file system declares them, read at test time: every `page.tsx` and
 * every method a `route.ts` exports. Route groups `(name)` add no segment; private folders `_name`
 * and parallel slots are not routes; dynamic segments stay as written (`[id]`, `[...all]`).
 */
export interface AppRoute {
  kind: 'page' | 'api';
  /** GET for pages. */
  method: string;
  /** `/operators`, `/api/operators/[id]`. */
  pattern: string;
  file: string;
}

const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];

export function appRoutes(appDir = path.resolve('app')): AppRoute[] {
  const routes: AppRoute[] = [];
  const walk = (directory: string, segments: string[]) => {
    for (const entry of readdirSync(directory, { withFileTypes: true })) {
      const full = path.join(directory, entry.name);
      if (entry.isDirectory()) {
        if (entry.name.startsWith('_') || entry.name.startsWith('@')) continue;
        const isGroup = entry.name.startsWith('(') && entry.name.endsWith(')');
        walk(full, isGroup ? segments : [...segments, entry.name]);
        continue;
      }
      const pattern = `/${segments.join('/')}`;
      if (/^page\.(tsx|ts|jsx|js|mdx)$/.test(entry.name)) {
        routes.push({ kind: 'page', method: 'GET', pattern, file: full });
      }
      if (/^route\.(ts|js)$/.test(entry.name)) {
        for (const method of exportedMethods(readFileSync(full, 'utf8'))) {
          routes.push({ kind: 'api', method, pattern, file: full });
        }
      }
    }
  };
  walk(appDir, []);
  return routes.sort((a, b) => routeKey(a).localeCompare(routeKey(b)));
}

/** `export const POST =`, `export async function GET(`, `export { GET, POST }`, `export const { GET } =`. */
function exportedMethods(source: string): string[] {
  const found = new Set<string>();
  for (const match of source.matchAll(/export\s+(?:const|let|async\s+function|function)\s+([A-Z]+)\b/g)) {
    if (match[1] && METHODS.includes(match[1])) found.add(match[1]);
  }
  for (const match of source.matchAll(/export\s+(?:const\s+)?\{([^}]*)\}/g)) {
    for (const name of (match[1] ?? '').split(',')) {
      const exported =
        name
          .split(/\s+as\s+/)
          .pop()
          ?.trim() ?? '';
      if (METHODS.includes(exported)) found.add(exported);
    }
  }
  return [...found].sort();
}

export function routeKey(route: Pick<AppRoute, 'kind' | 'method' | 'pattern'>): string {
  return route.kind === 'page' ? `page ${route.pattern}` : `${route.method} ${route.pattern}`;
}
