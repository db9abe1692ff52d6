'use client';

import { useState } from 'react';
import { useEndOperatorSessions } from '@/app/(console)/operators/_hooks/use-end-operator-sessions';
import { formErrorMessage } from '@/components/form-errors';
import { Button } from '@/components/ui/button';
import {
  Dialog,
  DialogClose,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogTitle,
} from '@/components/ui/dialog';
import { plural } from '@/lib/plural';

/** Ends every session of an operator (a lost laptop), after a confirmation; says how many ended. */
export function EndSessionsButton({ operatorId, email }: { operatorId: string; email: string }) {
  const [confirming, setConfirming] = useState(false);
  const [ended, setEnded] = useState<number | null>(null);
  const end = useEndOperatorSessions(operatorId, {
    onSuccess: (count) => {
      setConfirming(false);
      setEnded(count);
    },
  });

  return (
    <>
      <Button
        size="sm"
        variant="outline"
        disabled={end.isPending}
        onClick={() => {
          end.reset();
          setEnded(null);
          setConfirming(true);
        }}
      >
        End all sessions
      </Button>
      {ended !== null ? (
        <p role="status" className="basis-full text-xs text-muted-foreground">
          {ended === 0 ? `${email} had no open session.` : `Ended ${plural(ended, 'session')} of ${email}.`}
        </p>
      ) : null}
      <Dialog open={confirming} onOpenChange={setConfirming}>
        <DialogContent>
          <DialogTitle>End every session of {email}?</DialogTitle>
          <DialogDescription>
            Each browser they are signed in on is signed out on its next request. They can sign in again.
          </DialogDescription>
          {end.isError ? (
            <p role="alert" className="text-sm font-medium text-destructive">
              {formErrorMessage(end.error)}
            </p>
          ) : null}
          <DialogFooter>
            <DialogClose asChild>
              <Button variant="outline">Cancel</Button>
            </DialogClose>
            <Button variant="destructive" disabled={end.isPending} onClick={() => end.mutate()}>
              End sessions
            </Button>
          </DialogFooter>
        </DialogContent>
      </Dialog>
    </>
  );
}
