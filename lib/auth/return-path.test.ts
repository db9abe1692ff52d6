import { describe, expect, it } from 'vitest';
import { safeReturnPath } from './return-path';

describe('safeReturnPath', () => {
  it.each([
    ['/audit?action=rotate', '/audit?action=rotate'],
    ['/operators', '/operators'],
    [['/recent', '/audit'], '/recent'],
    ['/audit/../recent', '/recent'],
    ['/a%20b', '/a%20b'],
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
    // Single-slash inputs whose normalised path is protocol-relative.
    '/.//evil.example/',
    '/..//evil.example',
    '/%2e//evil.example',
    '/%2E%2E//evil.example',
    '/%2f/evil.example',
    // Backslashes and control characters, raw or encoded (browsers read `\` as `/`).
    '/\\/evil.example',
    '/%5cevil.example',
    '/%5C%5Cevil.example',
    '/\t/evil.example',
    '/%09/evil.example',
    '/%0a/evil.example',
    '/%0d%0aSet-Cookie:x',
    '/%E0%A4%A',
  ])('turns %j into /', (value) => expect(safeReturnPath(value)).toBe('/'));
});
