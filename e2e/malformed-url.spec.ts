import { expect, test } from '@playwright/test';
import { appRoutes } from './support/app-routes';
import { sampleSegments } from './support/route-access';

/**
 * A page URL whose path holds a malformed percent-escape (`%E0%A4%A` ends mid-character, `%zz` is
 * no escape at all) is the client's mistake: 400 or 404, never a 500 from a decodeURIComponent that
 * throws. Every page with a dynamic segment, found in app/ at test time, gets each malformed value
 * in each of its segments in turn, signed in (the project's support operator) and signed out.
 */
const malformed = ['%E0%A4%A', '%', '%zz', 'acme%E0'];

const dynamicPages = appRoutes().filter(
  (route) => route.kind === 'page' && /\[[^\].]+\]/.test(route.pattern),
);

/** The page's path with `broken` in its `index`-th dynamic segment and samples in the others. */
function pathWith(pattern: string, index: number, broken: string): string {
  let seen = -1;
  return pattern.replace(/\[[^\]]+\]/g, (segment) => {
    seen += 1;
    return seen === index ? broken : (sampleSegments[segment] ?? 'sample');
  });
}

const malformedPaths = dynamicPages.flatMap((route) => {
  const segments = route.pattern.match(/\[[^\]]+\]/g) ?? [];
  return segments.flatMap((_, index) => malformed.map((broken) => pathWith(route.pattern, index, broken)));
});

test('there are pages with dynamic segments to try', () => {
  expect(malformedPaths).toContain('/testing/groups/%E0%A4%A');
  expect(malformedPaths).toContain('/testing/bulk/%E0%A4%A');
});

for (const signedIn of [true, false]) {
  test.describe(signedIn ? 'signed in' : 'signed out', () => {
    if (!signedIn) test.use({ storageState: { cookies: [], origins: [] } });

    for (const path of malformedPaths) {
      test(`${path} answers below 500`, async ({ request }) => {
        const response = await request.get(path, { maxRedirects: 0 });
        expect(response.status(), `${path}: ${(await response.text()).slice(0, 300)}`).toBeLessThan(500);
      });
    }
  });
}
