import { describe, expect, it } from 'vitest';
import { formatUtc, utcMinute, utcSecond } from './time';

describe('the console’s time format', () => {
  it('writes a stored moment to the minute, in UTC', () => {
    expect(utcMinute('2026-11-26T17:51:08.123Z')).toBe('2026-11-26 17:51');
    expect(formatUtc('2026-11-26T17:51:08.123Z')).toBe('2026-11-26 17:51 UTC');
    expect(utcSecond('2026-11-26T17:51:08.123Z')).toBe('2026-11-26 17:51:08');
  });
});
