/**
 * How the audit filters write a From/To time: a date, a date and a minute, or a UTC time to the
 * second, as the log writes them. Free of zod: the audit page's form checks a value with it before
 * the value may reach the page's address (lib/audit/filters.ts validates the same on the server).
 */
export const DATE = /^\d{4}-\d{2}-\d{2}$/;
export const MINUTE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/;
const SECOND = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,3})?Z?$/;

/** Whether a From/To value is written as the filters take times (a date, or a UTC time). */
export const isAuditTime = (value: string): boolean =>
  DATE.test(value) || MINUTE.test(value) || SECOND.test(value);

/** The HTML pattern of the same, for a form sent without JavaScript: nothing else reaches its URL. */
export const AUDIT_TIME_PATTERN = String.raw`\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?Z?)?)?`;

export const AUDIT_TIME_ERROR = 'must be a date (2026-11-21) or a UTC time (2026-11-21T14:30)';
