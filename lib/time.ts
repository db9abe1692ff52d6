/**
 * The console's one way of writing a moment: to the minute, in UTC, as the audit log and the
 * directory store it (ISO 8601). Plain module: pages, the browser and the server use it.
 */

/** `2026-11-26T17:51:08.123Z` → `2026-11-26 17:51` (a table cell under a "(UTC)" heading). */
export const utcMinute = (iso: string): string => iso.slice(0, 16).replace('T', ' ');

/** `2026-11-26T17:51:08.123Z` → `2026-11-26 17:51 UTC` (a moment in a sentence). */
export const formatUtc = (iso: string): string => `${utcMinute(iso)} UTC`;

/** `2026-11-26T17:51:08.123Z` → `2026-11-26 17:51:08` (the audit log, where seconds order events). */
export const utcSecond = (iso: string): string => iso.slice(0, 19).replace('T', ' ');

const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];

/**
 * When something stops working (an invitation, an approval), with its weekday so that a reader
 * knows the day at a glance, in UTC: `short` "Sat, 28 Nov, 17:02 UTC" (a page), `long` "Monday, 30
 * November 2026, 14:05 UTC" (a mail, read days later). Written by hand, not by Intl, whose words
 * differ between ICU versions: the server's page and the browser's render must agree. '' for what
 * is not a moment.
 */
export function formatExpiry(iso: string, style: 'short' | 'long' = 'short'): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  const weekday = WEEKDAYS[date.getUTCDay()] ?? '';
  const month = MONTHS[date.getUTCMonth()] ?? '';
  const time = `${String(date.getUTCHours()).padStart(2, '0')}:${String(date.getUTCMinutes()).padStart(2, '0')}`;
  return style === 'short'
    ? `${weekday.slice(0, 3)}, ${date.getUTCDate()} ${month.slice(0, 3)}, ${time} UTC`
    : `${weekday}, ${date.getUTCDate()} ${month} ${date.getUTCFullYear()}, ${time} UTC`;
}
