/**
 * Between the browser's route client (./console-client.ts), which meets a `step_up_required` refusal, and
 * the dialog that asks the person to confirm who they are (components/step-up-dialog.tsx), which
 * registers itself here. Refusals that arrive together share one question.
 */
type StepUpPrompt = () => Promise<boolean>;

let prompt: StepUpPrompt | null = null;
let pending: Promise<boolean> | null = null;

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
