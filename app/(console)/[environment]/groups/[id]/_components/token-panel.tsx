'use client';

import { KeyRound, Plus, RefreshCw, Trash2 } from 'lucide-react';
import dynamic from 'next/dynamic';
import Link from 'next/link';
import { useRouter } from 'next/navigation';
import { useCallback, useEffect, useReducer, useRef, useState } from 'react';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { NavigationGuard } from '@/components/navigation-guard';
import { SecretField } from '@/components/secret-field';
import { Alert } from '@/components/ui/alert';
import { Button, buttonVariants } from '@/components/ui/button';
import { useRefocusWhenDropped } from '@/components/use-refocus-when-dropped';
import { useRouteMutation } from '@/lib/browser-client/use-route-mutation';
import { type Environment, environmentPhrase, slugOf } from '@/lib/environments';
import { userGroupRoutes } from '@/lib/user-groups/routes';
import {
  absenceMessage,
  deleteGroupLabel,
  initialTokenPanelState,
  rotateTokenLabel,
  showTokenLabel,
  type TokenConfirmation,
  tokenActionsOffered,
  tokenConfirmation,
  tokenPanelFailure,
  tokenPanelReducer,
  tokenPanelStep,
} from './token-panel-state';

/** Only where the policy makes a delete wait for another operator: loaded then. */
const ApprovalWaiting = dynamic(() =>
  import('@/components/approval-waiting').then((module) => module.ApprovalWaiting),
);

type TokenPanelProps = {
  environment: Environment;
  userGroupId: string;
  /** The directory says the group was deleted: there is no token to show. */
  deleted: boolean;
  mayRotate: boolean;
  mayDelete: boolean;
  /** Where Create it again leads (the create form, filled in from the directory's record), if allowed. */
  createHref: string | null;
  /** CONSOLE_REQUIRE_APPROVAL names a delete here: it asks for a reason and waits for another operator. */
  deleteNeedsApproval?: boolean;
};

/**
 * The group's token and what can be done with it, in place: Show token (which never creates the
 * group: one deleted elsewhere is said to be gone, with Create it again), Reveal and Copy, Rotate
 * (the new token stays on screen, and leaving the page asks, until it is copied or closing is
 * confirmed) and Delete with the token the page holds. The page refreshes under it (fingerprint,
 * history) while its state stays.
 */
export function TokenPanel({
  environment,
  userGroupId,
  deleted,
  mayRotate,
  mayDelete,
  createHref,
  deleteNeedsApproval = false,
}: TokenPanelProps) {
  const [reason, setReason] = useState('');
  const [waitingFor, setWaitingFor] = useState<string | null>(null);
  const router = useRouter();
  const [state, dispatch] = useReducer(tokenPanelReducer, initialTokenPanelState);
  const { token, rotated, confirming, closingUncopied } = state;
  const rotatedRef = useRef<HTMLElement>(null);
  const newToken = rotated?.newToken;
  const inCustomer = environment === 'Customer';
  const group = { userGroupId, environment };

  const params = { environment: slugOf[environment] };
  // Never creates the group: `gone` when the service no longer has it.
  const show = useRouteMutation(userGroupRoutes.showToken, {
    params,
    onSuccess: (result) => {
      if (result.gone) {
        dispatch({ type: 'found-gone' });
        // The directory now records it deleted, and the history has the look and the undoing.
        router.refresh();
      } else dispatch({ type: 'shown', token: result.user_group.token });
    },
  });
  const rotate = useRouteMutation(userGroupRoutes.rotate, {
    params,
    onSuccess: (result, request) => {
      dispatch({ type: 'rotated', oldToken: request.current_token, newToken: result.user_group.token });
      // The fingerprint and the history change now; the new token stays here (this state survives).
      router.refresh();
    },
  });
  const deletedNow = useCallback(() => {
    dispatch({ type: 'deleted' });
    router.refresh();
  }, [router]);
  const remove = useRouteMutation(userGroupRoutes.delete, {
    params,
    onSuccess: deletedNow,
    onWaiting: ({ approvalId }) => setWaitingFor(approvalId),
  });
  const step = tokenPanelStep(state, deleted);
  const offered = tokenActionsOffered(state, { mayRotate, mayDelete });
  const failure = tokenPanelFailure({
    show: show.error,
    rotate: rotate.error,
    remove: remove.error,
  });

  // The Rotate button is gone once the new token is on screen: the focus goes to it, not to the page.
  useEffect(() => {
    if (newToken) rotatedRef.current?.focus();
  }, [newToken]);
  // A step that took the focused control with it (Done on the rotated token) leaves the focus on
  // what the panel offers next, not on the page's top.
  const panelRef = useRef<HTMLDivElement>(null);
  useRefocusWhenDropped(step, () => panelRef.current?.querySelector('button'));

  const confirmationProps = (which: TokenConfirmation) => ({
    ...tokenConfirmation(which, group),
    open: confirming === which,
    onOpenChange: (open: boolean) => dispatch({ type: 'confirming', which: open ? which : null }),
  });

  if (step === 'gone' || step === 'deleted') {
    return (
      <div className="flex flex-col gap-4">
        {/* An approved delete stays said: whose approval it was. */}
        {waitingFor ? <ApprovalWaiting approvalId={waitingFor} onDone={deletedNow} /> : null}
        <Alert role="status" variant="notice" className="flex flex-col items-start gap-3">
          <p>{absenceMessage(step, group)}</p>
          <CreateAgain href={createHref} />
        </Alert>
      </div>
    );
  }

  return (
    <div ref={panelRef} className="flex flex-col gap-4">
      {rotated ? (
        <section
          ref={rotatedRef}
          tabIndex={-1}
          aria-label="Rotated token"
          className="flex flex-col gap-3 rounded-lg border border-border p-4 outline-none focus-visible:ring-2 focus-visible:ring-ring"
        >
          <SecretField
            label="New token"
            value={rotated.newToken}
            confirmFirst={inCustomer}
            onCopied={() => dispatch({ type: 'new-token-copied' })}
          />
          <SecretField label="Old token" value={rotated.oldToken} revoked confirmFirst={inCustomer} />
          {closingUncopied ? (
            <Alert variant="notice" role="alert" className="flex flex-col gap-2">
              <p>The new token has not been copied. Close anyway? Show token fetches it again later.</p>
              <div className="flex flex-wrap gap-2">
                <Button variant="outline" onClick={() => dispatch({ type: 'close-without-copying' })}>
                  Close without copying
                </Button>
                <Button variant="outline" onClick={() => dispatch({ type: 'keep-on-screen' })}>
                  Keep it on screen
                </Button>
              </div>
            </Alert>
          ) : (
            <div className="flex flex-wrap items-center gap-3">
              <Button variant="outline" onClick={() => dispatch({ type: 'done' })}>
                Done
              </Button>
              {rotated.copied ? null : (
                <p className="text-xs text-muted-foreground">Copy the new token before leaving this page.</p>
              )}
            </div>
          )}
          <NavigationGuard
            active={!rotated.copied}
            title={`Leave ${userGroupId} in ${environmentPhrase(environment)} without copying its new token?`}
            description="The old token stopped working. The new one is on this page until you copy it; Show token can fetch it again later."
            stayLabel="Stay and copy it"
            leaveLabel="Leave without copying"
          />
        </section>
      ) : token ? (
        // The section's heading already says "Token": the field's own label is for screen readers only.
        <SecretField label="Token" labelHidden value={token} confirmFirst={inCustomer} />
      ) : (
        <div>
          <Button
            data-main-action
            onClick={() => show.mutate({ user_group_id: userGroupId })}
            disabled={show.isPending}
          >
            <KeyRound aria-hidden="true" />
            {showTokenLabel(show.isPending)}
          </Button>
        </div>
      )}

      {failure ? (
        <Alert variant="error" role="alert">
          {failure}
        </Alert>
      ) : null}

      {waitingFor ? <ApprovalWaiting approvalId={waitingFor} onDone={deletedNow} /> : null}

      {(offered.rotate || offered.delete) && !waitingFor ? (
        <div className="flex flex-wrap gap-2">
          {offered.rotate ? (
            <Button
              variant="outline"
              onClick={() => dispatch({ type: 'confirming', which: 'rotate' })}
              disabled={rotate.isPending}
            >
              <RefreshCw aria-hidden="true" />
              {rotateTokenLabel(rotate.isPending)}
            </Button>
          ) : null}
          {offered.delete ? (
            <Button
              variant="destructive"
              onClick={() => dispatch({ type: 'confirming', which: 'delete' })}
              disabled={remove.isPending}
            >
              <Trash2 aria-hidden="true" />
              {deleteGroupLabel(remove.isPending)}
            </Button>
          ) : null}
        </div>
      ) : null}

      <ConfirmDialog
        {...confirmationProps('rotate')}
        onConfirm={() => {
          dispatch({ type: 'confirming', which: null });
          if (token) rotate.mutate({ current_token: token });
        }}
      />
      <ConfirmDialog
        {...confirmationProps('delete')}
        {...(deleteNeedsApproval
          ? {
              confirmLabel: 'Ask for approval',
              reason: { label: 'Reason (another operator reads it)', value: reason, onChange: setReason },
            }
          : {})}
        onConfirm={() => {
          dispatch({ type: 'confirming', which: null });
          const request = { user_group_id: userGroupId, current_token: token ?? '' };
          if (token)
            remove.mutate(deleteNeedsApproval ? Object.assign(request, { approvalReason: reason }) : request);
        }}
      />
    </div>
  );
}

/** The explicit way back: the create form, filled in from what the console recorded of the group. */
function CreateAgain({ href }: { href: string | null }) {
  if (!href) return null;
  return (
    <Link href={href} className={buttonVariants({ variant: 'outline', size: 'sm' })}>
      <Plus aria-hidden="true" />
      Create it again
    </Link>
  );
}
