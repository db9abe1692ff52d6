'use client';

import { useState } from 'react';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { formErrorMessage } from '@/components/form-errors';
import { Button } from '@/components/ui/button';
import { useRouteMutation } from '@/lib/browser-client/use-route-mutation';
import { plural } from '@/lib/plural';
import { sessionRoutes } from '@/lib/sessions/routes';

/** Ends every session of an operator (a lost laptop), after a confirmation; says how many ended. */
export function EndSessionsButton({ operatorId, email }: { operatorId: string; email: string }) {
  const [confirming, setConfirming] = useState(false);
  const [ended, setEnded] = useState<number | null>(null);
  // Each of their browsers is signed out on its next request.
  const end = useRouteMutation(sessionRoutes.endOperatorSessions, {
    params: { id: operatorId },
    onSuccess: ({ ended: count }) => {
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
      <ConfirmDialog
        open={confirming}
        onOpenChange={setConfirming}
        title={`End every session of ${email}?`}
        description="Each browser they are signed in on is signed out on its next request. They can sign in again."
        confirmLabel="End sessions"
        destructive
        pending={end.isPending}
        pendingLabel="Ending sessions…"
        error={end.isError ? formErrorMessage(end.error) : null}
        onConfirm={() => end.mutate()}
      />
    </>
  );
}
