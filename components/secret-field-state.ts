/**
 * The secret field's timings and words as pure functions: how long a copy's outcome stays, when a
 * revealed production token hides again, and what the live region says. The field
 * (secret-field.tsx) renders them and keeps the timers.
 */

export type CopyOutcomeKind = 'copied' | 'failed' | 'cancelled';

const COPIED_FEEDBACK_MS = 2000;

/** "Copied" shows two seconds; a failure or a cancelled confirmation stays long enough to read. */
export const copyFeedbackMs = (kind: CopyOutcomeKind): number =>
  kind === 'copied' ? COPIED_FEEDBACK_MS : 4 * COPIED_FEEDBACK_MS;

/**
 * When a revealed token hides again, in ms: a production token (`confirmFirst`) when the session's
 * recent-authentication window closes; null when nothing is to hide or the token may stay shown.
 */
export function hideAgainInMs(
  field: { confirmFirst: boolean; revealed: boolean },
  windowRemainingMs: number,
): number | null {
  return field.confirmFirst && field.revealed ? windowRemainingMs : null;
}

/** What the live region says after a copy; '' says nothing. */
export function copyAnnouncement(label: string, kind: CopyOutcomeKind | null): string {
  if (kind === 'copied') return `${label} copied to the clipboard.`;
  if (kind === 'failed')
    return `Could not copy automatically. The ${label.toLowerCase()} is selected: press Ctrl+C (⌘C on a Mac) to copy it.`;
  return '';
}

/** "Copied" is on the button already: the line shows only what went wrong, for everyone to read. */
export const copyAnnouncementVisible = (kind: CopyOutcomeKind | null): boolean =>
  kind !== null && kind !== 'copied';
