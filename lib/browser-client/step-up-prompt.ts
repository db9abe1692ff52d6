/**
 * Between the browser's route client (./console-client.ts), which meets a `step_up_required` refusal, and
 * the dialog that asks the person to confirm who they are (app/(console)/_operator/step-up-dialog.tsx),
 * which registers itself here. Refusals that arrive together share one question.
 *
 * It also keeps when this session's recent authentication runs out, as the server told the page
 * (and each confirmation since): a production token already on the page is revealed or copied
 * only within that window, and after it the person confirms first (components/secret-field.tsx).
 */
import { realClock } from '@/lib/clock';

type StepUpPrompt = () => Promise<boolean>;

let prompt: StepUpPrompt | null = null;
let pending: Promise<boolean> | null = null;
/** The monotonic reading (realClock.monotonic) at which the window closes, whatever the wall clock does. */
let confirmedUntil = Number.NEGATIVE_INFINITY;

export function registerStepUpPrompt(next: StepUpPrompt | null): void {
  prompt = next;
}

/** True once the person has confirmed; false when they cancelled or no dialog is on the page. */
export function askToStepUp(): Promise<boolean> {
  if (!prompt) return Promise.resolve(false);
  pending ??= prompt().finally(() => {
    pending = null;
  });
  return pending;
}

/** The session's recent authentication holds for `ms` more (the server's figure, or a new confirmation's). */
export function noteConfirmedFor(ms: number, now = realClock.monotonic()): void {
  confirmedUntil = now + ms;
}

/** Whether the window is still open, with a few seconds' margin for the request that follows. */
export function confirmedRecently(now = realClock.monotonic()): boolean {
  return now + CONFIRMATION_MARGIN_MS < confirmedUntil;
}

const CONFIRMATION_MARGIN_MS = 5_000;

/** How long the window stays open, in ms (0 once it has closed): a revealed token hides then. */
export function confirmedRemainingMs(now = realClock.monotonic()): number {
  return Math.max(0, confirmedUntil - now);
}

/** Within the window, at once; after it, once the person has confirmed in the dialog. */
export async function ensureConfirmedRecently(): Promise<boolean> {
  return confirmedRecently() || askToStepUp();
}
