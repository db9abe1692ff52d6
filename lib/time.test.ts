import { describe, expect, it } from 'vitest';
import { formatExpiry, formatUtc, utcMinute, utcSecond } from './time';

describe('the console’s time format', () => {
  it('writes a stored moment to the minute, in UTC', () => {
    expect(utcMinute('2026-11-26T17:51:08.123Z')).toBe('2026-11-26 17:51');
    expect(formatUtc('2026-11-26T17:51:08.123Z')).toBe('2026-11-26 17:51 UTC');
    expect(utcSecond('2026-11-26T17:51:08.123Z')).toBe('2026-11-26 17:51:08');
  });

  it('writes when something stops working with its weekday, short on a page and long in a mail', () => {
    expect(formatExpiry('2026-11-28T17:02:59.000Z')).toBe('Sat, 28 Nov, 17:02 UTC');
    expect(formatExpiry('2026-11-30T14:05:00.000Z', 'long')).toBe('Monday, 30 November 2026, 14:05 UTC');
    expect(formatExpiry('not a moment')).toBe('');
  });
});
