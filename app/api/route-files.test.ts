/**
 * README ("How it is built"): every file under app/api only names what its feature's lib/ module
 * defines; a route's permission, step-up, audit and approval live on its definition there. Only
 * health and readiness, which run without a console route, hold code of their own. A file that
 * builds a route itself (consoleRoute, a frame, a function of its own) fails here.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const apiDir = path.resolve(import.meta.dirname);
const OWN_CODE = new Set(['health/route.ts', 'ready/route.ts']);

const routeFiles = readdirSync(apiDir, { recursive: true, encoding: 'utf8' })
  .map((file) => file.split(path.sep).join('/'))
  .filter((file) => file.endsWith('/route.ts'));

/** What in a route file is more than naming a handler. */
function ownCode(source: string): string[] {
  const found: string[] = [];
  if (/\bconsoleRoute\(|\brequestFrame\(|\buserGroupRoute\(/.test(source)) found.push('builds a route');
  if (/\bfunction\b|=>/.test(source)) found.push('a function of its own');
  if (/\bawait\b|\bif\s*\(/.test(source)) found.push('logic');
  return found;
}

describe('app/api route files', () => {
  it('are found', () => {
    expect(routeFiles.length).toBeGreaterThan(40);
    for (const file of OWN_CODE) expect(routeFiles).toContain(file);
  });

  it('only name the handlers their feature defines', () => {
    const thick = routeFiles
      .filter((file) => !OWN_CODE.has(file))
      .flatMap((file) => {
        const found = ownCode(readFileSync(path.join(apiDir, file), 'utf8'));
        return found.length > 0 ? [`${file}: ${found.join(', ')}`] : [];
      });
    expect(thick).toEqual([]);
  });

  it('tells a route built in place from one named', () => {
    expect(ownCode('export const POST = consoleRoute(spec, async ({ body }) => body);')).toEqual([
      'builds a route',
      'a function of its own',
    ]);
    expect(ownCode('export const POST = createOperatorRoute;')).toEqual([]);
  });
});
