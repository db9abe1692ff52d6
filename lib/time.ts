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
