'use client';

import { useId, useState } from 'react';
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

type ConfirmActionProps = {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  description: string;
  confirmLabel: string;
  /** In Customer the person types the group's id; in Testing a plain confirmation is enough. */
  typeToConfirm: string | null;
  destructive?: boolean;
  onConfirm: () => void;
};

/** The confirmation of a rotation or deletion, as strict as the environment asks. */
export function ConfirmAction({
  open,
  onOpenChange,
  title,
  description,
  confirmLabel,
  typeToConfirm,
  destructive = false,
  onConfirm,
}: ConfirmActionProps) {
  const id = useId();
  const [typed, setTyped] = useState('');
  const ready = typeToConfirm === null || typed === typeToConfirm;
  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        if (!next) setTyped('');
        onOpenChange(next);
      }}
    >
      <DialogContent>
        <DialogTitle className="wrap-anywhere">{title}</DialogTitle>
        <DialogDescription>{description}</DialogDescription>
        <form
          className="flex flex-col gap-4"
          onSubmit={(event) => {
            event.preventDefault();
            if (!ready) return;
            setTyped('');
            onConfirm();
          }}
        >
          {typeToConfirm !== null ? (
            <div className="flex flex-col gap-2">
              <label htmlFor={id} className="text-sm font-medium">
                Type <code className="font-mono">{typeToConfirm}</code> to confirm
              </label>
              <Input
                id={id}
                value={typed}
                onChange={(event) => setTyped(event.target.value)}
                autoComplete="off"
                spellCheck={false}
                className="font-mono"
                autoFocus
              />
            </div>
          ) : null}
          <DialogFooter>
            <DialogClose asChild>
              <Button type="button" variant="outline">
                Cancel
              </Button>
            </DialogClose>
            <Button type="submit" variant={destructive ? 'destructive' : 'primary'} disabled={!ready}>
              {confirmLabel}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
