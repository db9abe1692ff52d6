import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { consoleRoutes } from '@/lib/console-api/routes';

/**
 * The console's routes as the file system declares them, read at test time: every `page.tsx` and
 * every method a `route.ts` exports. Route groups `(name)` add no segment; private folders `_name`
 * and parallel slots are not routes; dynamic segments stay as written (`[id]`, `[...all]`). A
 * feature's one file (lib/server/route-table.ts) is listed as the defined routes it serves.
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
        const source = readFileSync(full, 'utf8');
        for (const method of exportedMethods(source)) {
          // A feature's one file (lib/server/route-table.ts) stands for the routes it serves.
          if (/\brouteTable\(/.test(source)) tables.push({ method, pattern, file: full });
          else routes.push({ kind: 'api', method, pattern, file: full });
        }
      }
    }
  };
  const tables: Array<Omit<AppRoute, 'kind'>> = [];
  walk(appDir, []);
  const own = new Set(routes.map(routeKey));
  for (const table of tables) {
    for (const route of Object.values(consoleRoutes)) {
      const key = `${route.method} ${route.path}`;
      if (route.method === table.method && !own.has(key) && fits(table.pattern, route.path))
        routes.push({ kind: 'api', method: route.method, pattern: route.path, file: table.file });
    }
  }
  return routes.sort((a, b) => routeKey(a).localeCompare(routeKey(b)));
}

/** A path a table's pattern serves: the same segments, a name where the pattern has a parameter. */
function fits(pattern: string, path: string): boolean {
  const segments = pattern.split('/');
  const parts = path.split('/');
  const isParam = (segment: string) => /^\[\w+\]$/.test(segment);
  return (
    segments.length === parts.length &&
    segments.every((segment, i) => segment === parts[i] || (isParam(segment) && !isParam(parts[i] ?? '')))
  );
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
