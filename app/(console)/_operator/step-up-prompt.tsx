'use client';

import { type ComponentType, useEffect, useRef, useState } from 'react';
import { noteConfirmedFor, registerStepUpPrompt } from '@/lib/browser-client/step-up-prompt';
import type { StepUpDialogProps } from './step-up-dialog';

type StepUpPromptProps = Omit<StepUpDialogProps, 'open' | 'onSettled'> & {
  /** How long this session's recent authentication still holds, as the server rendered the page. */
  confirmedForMs: number;
};

/** The dialog (its form, the passkey ceremony, single sign-on) is fetched when a route first asks for it. */
const loadStepUpDialog = () => import('./step-up-dialog').then((module) => module.StepUpDialog);

/**
 * On every console page: answers the route client's question "confirm it's you?"
 * (lib/browser-client/step-up-prompt.ts) with the step-up dialog, loaded then. Few visits need it,
 * and it weighed about 5 kB gzip on every page.
 */
export function StepUpPrompt({ confirmedForMs, ...dialogProps }: StepUpPromptProps) {
  const [StepUpDialog, setStepUpDialog] = useState<ComponentType<StepUpDialogProps> | null>(null);
  const [open, setOpen] = useState(false);
  const settle = useRef<((confirmed: boolean) => void) | null>(null);

  useEffect(() => {
    registerStepUpPrompt(async () => {
      const dialog = await loadStepUpDialog().catch(() => null);
      // Not loaded (the connection dropped): as if cancelled, and the action says so.
      if (!dialog) return false;
      setStepUpDialog(() => dialog);
      return new Promise<boolean>((resolve) => {
        settle.current = resolve;
        setOpen(true);
      });
    });
    return () => registerStepUpPrompt(null);
  }, []);

  useEffect(() => noteConfirmedFor(confirmedForMs), [confirmedForMs]);

  if (!StepUpDialog) return null;
  return (
    <StepUpDialog
      {...dialogProps}
      open={open}
      onSettled={(confirmed) => {
        setOpen(false);
        settle.current?.(confirmed);
        settle.current = null;
      }}
    />
  );
}
