import { describe, expect, it } from 'vitest';
import { safeReturnPath } from './return-path';

describe('safeReturnPath', () => {
  it.each([
    ['/audit?action=rotate', '/audit?action=rotate'],
    ['/operators', '/operators'],
    [['/recent', '/audit'], '/recent'],
    // Percent-encoded stays encoded: a path, not a header.
    ['/%0d%0aSet-Cookie:x', '/%0d%0aSet-Cookie:x'],
  ])('keeps %j', (value, expected) => expect(safeReturnPath(value)).toBe(expected));

  it.each([
    undefined,
    '',
    'audit',
    'https://evil.example/',
    '//evil.example/path',
    '/\\evil.example',
    '/sign-in?next=/sign-in',
    'javascript:alert(1)',
    '/\u0000',
  ])('turns %j into /', (value) => expect(safeReturnPath(value)).toBe('/'));
});
