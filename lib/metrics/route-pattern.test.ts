import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createRoutePatternMatcher, readBuiltRoutePatterns } from './route-pattern';

const patterns = [
  '/',
  '/[environment]',
  '/[environment]/groups/[id]',
  '/[environment]/new',
  '/audit',
  '/api/health',
  '/api/user-groups/[environment]',
  '/api/user-groups/[environment]/get-or-create',
  '/api/jobs/[id]',
  '/api/auth/[...all]',
];

describe('createRoutePatternMatcher', () => {
  const routeOf = createRoutePatternMatcher(patterns);

  it.each([
    ['/', '/'],
    ['/customer', '/[environment]'],
    ['/audit', '/audit'],
    ['/audit?operator=someone@example.com', '/audit'],
    ['/customer/new', '/[environment]/new'],
    ['/customer/groups/acme-secret-id', '/[environment]/groups/[id]'],
    ['/customer/groups/a%2Fb', '/[environment]/groups/[id]'],
    ['/api/user-groups/testing?q=acme', '/api/user-groups/[environment]'],
    ['/api/user-groups/testing/get-or-create', '/api/user-groups/[environment]/get-or-create'],
    ['/api/jobs/0b7c', '/api/jobs/[id]'],
    ['/api/auth/sign-in/email', '/api/auth/[...all]'],
    ['/api/auth', 'unmatched'],
    ['/_next/static/chunks/abc.js', '/_next/[...asset]'],
    ['/customer/groups/x/y/z', 'unmatched'],
    ['http://console.example/api/health', '/api/health'],
  ])('%s is counted as %s', (url, expected) => {
    expect(routeOf(url)).toBe(expected);
  });
});

describe('readBuiltRoutePatterns', () => {
  it("reads the build's app routes without Next's internal ones", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'route-manifest-'));
    try {
      await writeFile(
        path.join(dir, 'app-path-routes-manifest.json'),
        JSON.stringify({
          '/_not-found/page': '/_not-found',
          '/(console)/[environment]/groups/[id]/page': '/[environment]/groups/[id]',
          '/api/health/route': '/api/health',
        }),
      );
      expect(readBuiltRoutePatterns(dir).sort()).toEqual(['/[environment]/groups/[id]', '/api/health']);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
