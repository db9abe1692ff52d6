import { describe, expect, it } from 'vitest';
import {
  confirmedRecently,
  confirmedRemainingMs,
  ensureConfirmedRecently,
  noteConfirmedFor,
  registerStepUpPrompt,
} from './step-up-prompt';

// Security round 3 (a support person's walk): a Customer token already on the page was revealed and
// copied long after CONSOLE_STEP_UP_MINUTES. The page now keeps the window the server gave it.
describe('the window of a recent authentication, in the page', () => {
  it('holds for what the server said, less a margin, then asks the dialog', async () => {
    noteConfirmedFor(60_000, 1_000);
    expect(confirmedRecently(1_000)).toBe(true);
    expect(confirmedRecently(55_000)).toBe(true);
    expect(confirmedRecently(57_000)).toBe(false);
    expect(confirmedRecently(61_001)).toBe(false);
    expect(confirmedRemainingMs(31_000)).toBe(30_000);
    expect(confirmedRemainingMs(70_000)).toBe(0);
  });

  it('asks the person once it has passed, and goes on only when they confirmed', async () => {
    let asked = 0;
    let answer = false;
    registerStepUpPrompt(async () => {
      asked += 1;
      return answer;
    });
    noteConfirmedFor(0);
    expect(await ensureConfirmedRecently()).toBe(false);
    answer = true;
    expect(await ensureConfirmedRecently()).toBe(true);
    expect(asked).toBe(2);

    noteConfirmedFor(15 * 60_000);
    expect(await ensureConfirmedRecently()).toBe(true);
    expect(asked).toBe(2);
    registerStepUpPrompt(null);
  });

  it('refuses when no dialog is on the page to ask', async () => {
    registerStepUpPrompt(null);
    noteConfirmedFor(0);
    expect(await ensureConfirmedRecently()).toBe(false);
  });
});
