'use client';

import { type ComponentProps, type ReactNode, useEffect, useId, useState } from 'react';
import { FormField } from '@/components/form-field';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import {
  Dialog,
  DialogClose,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogTitle,
} from '@/components/ui/dialog';
import { Input } from '@/components/ui/input';
import { confirmsTyped, type TypeToConfirm, typedFeedback } from './confirm-dialog.utils';
import { cn } from './ui/cn';
import { useDebounced } from './use-debounced';

type ConfirmDialogProps = {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: ReactNode;
  description: ReactNode;
  confirmLabel: string;
  cancelLabel?: string;
  destructive?: boolean;
  /**
   * Plain when null; otherwise what the person types before the button wakes: a group's id, exactly
   * as it is, or a number of rows (in Customer, the console's production).
   */
  typeToConfirm?: TypeToConfirm | null;
  /** While the confirmed action runs: the dialog stays open and its buttons wait. */
  pending?: boolean;
  pendingLabel?: string;
  /** Why the confirmed action failed, shown in the dialog (which stays open to try again). */
  error?: string | null;
  onConfirm: () => void;
  /**
   * A reason the person must give (an action that waits for another operator's approval, a
   * rejection): a required field, the button waking once it is filled in.
   */
  reason?: { label: string; value: string; onChange: (value: string) => void } | null;
  /** Where focus goes when the dialog closes, when not back to the button that opened it. */
  onCloseAutoFocus?: ComponentProps<typeof DialogContent>['onCloseAutoFocus'];
};

/** How long typing rests before the field's match or typo is read out. */
const ANNOUNCE_AFTER_MS = 700;

/** The one confirmation of the console: plain, by a typed id, or by a typed count. */
export function ConfirmDialog({
  open,
  onOpenChange,
  title,
  description,
  confirmLabel,
  cancelLabel = 'Cancel',
  destructive = false,
  typeToConfirm = null,
  pending = false,
  pendingLabel = 'Working…',
  error = null,
  onConfirm,
  onCloseAutoFocus,
  reason = null,
}: ConfirmDialogProps) {
  const id = useId();
  const [typed, setTyped] = useState('');
  useEffect(() => {
    if (!open) setTyped('');
  }, [open]);
  const ready =
    (typeToConfirm === null || confirmsTyped(typeToConfirm, typed)) &&
    (reason === null || reason.value.trim() !== '');
  // Said under the field as the person types (read with it, by aria-describedby); read out only once
  // typing stops, and only a match or a typo: not "… yet" after every key.
  const feedback = typeToConfirm === null ? null : typedFeedback(typeToConfirm, typed);
  const settled = useDebounced(typed, ANNOUNCE_AFTER_MS);
  const announced = settled === typed && feedback?.state !== 'on-the-way' ? feedback?.text : null;
  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        if (!next && pending) return;
        onOpenChange(next);
      }}
    >
      <DialogContent onCloseAutoFocus={onCloseAutoFocus}>
        <DialogTitle className="wrap-anywhere">{title}</DialogTitle>
        <DialogDescription>{description}</DialogDescription>
        <form
          className="flex flex-col gap-4"
          noValidate
          onSubmit={(event) => {
            event.preventDefault();
            if (ready && !pending) onConfirm();
          }}
        >
          {typeToConfirm !== null ? (
            <FormField
              id={`${id}-confirm`}
              label={typeToConfirm.label ?? `Type ${typeToConfirm.value} to confirm`}
              description={
                feedback ? (
                  <span
                    data-testid="typed-feedback"
                    className={cn(
                      feedback.state === 'matches' && 'font-medium text-green-800 dark:text-green-300',
                      feedback.state === 'typo' && 'font-medium text-foreground',
                    )}
                  >
                    {feedback.text}
                  </span>
                ) : null
              }
            >
              {(control) => (
                <Input
                  {...control}
                  value={typed}
                  onChange={(event) => setTyped(event.target.value)}
                  autoComplete="off"
                  spellCheck={false}
                  autoCapitalize="off"
                  inputMode={typeToConfirm.kind === 'count' ? 'numeric' : undefined}
                  className="font-mono"
                />
              )}
            </FormField>
          ) : null}
          {reason ? (
            <FormField id={`${id}-reason`} label={reason.label}>
              {(control) => (
                <Input
                  {...control}
                  required
                  value={reason.value}
                  onChange={(event) => reason.onChange(event.target.value)}
                  maxLength={500}
                  autoComplete="off"
                />
              )}
            </FormField>
          ) : null}
          {typeToConfirm !== null ? (
            <p role="status" className="sr-only" data-testid="typed-announcement">
              {announced}
            </p>
          ) : null}
          {error ? (
            <Alert variant="error" role="alert">
              {error}
            </Alert>
          ) : null}
          <DialogFooter>
            <DialogClose asChild>
              <Button type="button" variant="outline" disabled={pending}>
                {cancelLabel}
              </Button>
            </DialogClose>
            <Button
              type="submit"
              variant={destructive ? 'destructive' : 'primary'}
              disabled={!ready || pending}
            >
              {pending ? pendingLabel : confirmLabel}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
