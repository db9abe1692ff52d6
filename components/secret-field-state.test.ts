import { describe, expect, it } from 'vitest';
import {
  copyAnnouncement,
  copyAnnouncementVisible,
  copyFeedbackMs,
  hideAgainInMs,
} from './secret-field-state';

describe('the secret field', () => {
  it('keeps “Copied” two seconds, and a failure or a cancel eight', () => {
    expect(copyFeedbackMs('copied')).toBe(2000);
    expect(copyFeedbackMs('failed')).toBe(8000);
    expect(copyFeedbackMs('cancelled')).toBe(8000);
  });

  it('hides a revealed production token when the recent-authentication window closes', () => {
    expect(hideAgainInMs({ confirmFirst: true, revealed: true }, 42_000)).toBe(42_000);
    expect(hideAgainInMs({ confirmFirst: true, revealed: true }, 0)).toBe(0);
  });

  it('leaves a masked token, and one that needs no confirmation, as they are', () => {
    expect(hideAgainInMs({ confirmFirst: true, revealed: false }, 42_000)).toBeNull();
    expect(hideAgainInMs({ confirmFirst: false, revealed: true }, 42_000)).toBeNull();
  });

  it('announces a copy, and says how to copy by hand when the clipboard refused', () => {
    expect(copyAnnouncement('New token', 'copied')).toBe('New token copied to the clipboard.');
    expect(copyAnnouncement('New token', 'failed')).toBe(
      'Could not copy automatically. The new token is selected: press Ctrl+C (⌘C on a Mac) to copy it.',
    );
    expect(copyAnnouncement('Token', 'cancelled')).toBe('');
    expect(copyAnnouncement('Token', null)).toBe('');
  });

  it('shows the line only for what went wrong (the button says Copied itself)', () => {
    expect(copyAnnouncementVisible('failed')).toBe(true);
    expect(copyAnnouncementVisible('cancelled')).toBe(true);
    expect(copyAnnouncementVisible('copied')).toBe(false);
    expect(copyAnnouncementVisible(null)).toBe(false);
  });
});
