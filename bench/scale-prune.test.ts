import { describe, expect, it } from 'vitest';
import { AUDIT_START_S, AUDIT_STEP_S } from './scale-load';
import { retentionDaysFor } from './scale-prune';

const DAY_S = 86_400;

describe('the pruning phase of the scale bench', () => {
  it('sets the retention so that about the asked number of the oldest entries are past it', () => {
    const now = AUDIT_START_S + 400 * DAY_S;
    const days = retentionDaysFor(1_000_000, now);
    const cutoff = now - days * DAY_S;
    const past = Math.floor((cutoff - AUDIT_START_S) / AUDIT_STEP_S);
    // Whole days: at most a day's entries (28,800) more than asked, never fewer.
    expect(past).toBeGreaterThanOrEqual(1_000_000);
    expect(past).toBeLessThan(1_000_000 + DAY_S / AUDIT_STEP_S);
  });

  it('keeps at least a day', () => {
    expect(retentionDaysFor(10_000_000, AUDIT_START_S + DAY_S)).toBe(1);
  });
});
