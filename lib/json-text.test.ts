import { describe, expect, it } from 'vitest';
import { formatJsonText, parseJsonText, positionAt } from './json-text';

describe('positionAt', () => {
  it.each([
    ['abc', 0, 1, 1],
    ['abc', 2, 1, 3],
    ['a\nbc', 3, 2, 2],
    ['a\r\nbc', 4, 2, 2],
    ['a\rbc', 2, 2, 1],
    ['😀x', 2, 1, 2],
    ['ab', 99, 1, 3],
  ])('%j at %i is line %i, column %i', (text, offset, line, column) => {
    expect(positionAt(text, offset)).toEqual({ line, column });
  });
});

describe('parseJsonText', () => {
  it.each(['', '   ', '\n\t'])('reads blank text %j as empty', (text) => {
    expect(parseJsonText(text)).toEqual({ kind: 'empty' });
  });

  it.each([
    ['{"a": 1}', { a: 1 }],
    ['[1, "two"]', [1, 'two']],
    ['"text"', 'text'],
    ['null', null],
    ['{\n  "nested": { "x": [true, false] }\n}', { nested: { x: [true, false] } }],
  ])('parses %j', (text, value) => {
    expect(parseJsonText(text)).toEqual({ kind: 'valid', value });
  });

  // Each case: text, expected message. Positions are 1-based and point at the offending character.
  it.each([
    ['{"a": 1,}', 'line 1, column 8: trailing comma is not allowed in JSON'],
    ['{\n  "a": 1,\n}', 'line 2, column 9: trailing comma is not allowed in JSON'],
    ['[1, 2,]', 'line 1, column 6: trailing comma is not allowed in JSON'],
    ["{'a': 1}", 'line 1, column 2: use double quotes, not single quotes'],
    ['{"a" 1}', 'line 1, column 6: expected a colon after the property name'],
    ['{\n  "a": 1', 'line 2, column 9: the object is not closed: expected “}”'],
    ['{"a": 1 "b": 2}', 'line 1, column 9: expected a comma'],
    ['[1 2]', 'line 1, column 4: expected a comma'],
    ['{"a": tru}', 'line 1, column 7: unexpected “tru”'],
    ['{} x', 'line 1, column 4: unexpected “x”'],
    ['{"a": 1}}', 'line 1, column 9: unexpected text after the end of the JSON value'],
    ['// note\n{}', 'line 1, column 1: comments are not allowed in JSON'],
    ['{"a": "x', 'line 1, column 7: the string is not closed: expected a double quote'],
    ['{"a": "x\ty"}', 'line 1, column 9: a string cannot contain a raw tab or line break: write \\t or \\n'],
    ['{"a": "\\q"}', 'line 1, column 8: invalid escape in a string'],
    ['{"a": 1.}', 'line 1, column 7: invalid number “1.”'],
    ['{"a":', 'line 1, column 6: the text ends where a value is expected'],
    [
      '{"id": 12345678901234567890}',
      'line 1, column 8: “12345678901234567890” is too large to send exactly: write it as a string',
    ],
  ])('%j: %s', (text, message) => {
    const result = parseJsonText(text);
    expect(result.kind).toBe('invalid');
    if (result.kind === 'invalid') expect(result.message).toBe(message);
  });

  it('keeps large numbers that are not integers', () => {
    expect(parseJsonText('{"ratio": 1e300}')).toEqual({ kind: 'valid', value: { ratio: 1e300 } });
  });

  it('refuses nesting deeper than a field may send, at the bracket that goes too deep, without overflowing', () => {
    expect(parseJsonText(`${'['.repeat(63)}${']'.repeat(63)}`).kind).toBe('valid');
    expect(parseJsonText(`{"a":${'['.repeat(63)}${']'.repeat(63)}}`)).toMatchObject({
      kind: 'invalid',
      message: 'line 1, column 68: nests deeper than 63 levels',
    });
    // jsonc-parser recursed once per level: this threw RangeError before any check.
    expect(parseJsonText('['.repeat(200_000))).toMatchObject({ kind: 'invalid', line: 1, column: 64 });
    expect(parseJsonText(`["${'['.repeat(100)}"]`).kind).toBe('valid');
  });
});

describe('formatJsonText', () => {
  it('pretty-prints with two spaces', () => {
    expect(formatJsonText('{"a":1,"b":[1,2]}')).toBe('{\n  "a": 1,\n  "b": [\n    1,\n    2\n  ]\n}');
  });

  it.each(['', '{"a":', "{'a':1}"])('returns undefined for %j', (text) => {
    expect(formatJsonText(text)).toBeUndefined();
  });
});
