'use client';

import dynamic from 'next/dynamic';
import { useRouter } from 'next/navigation';
import { useCallback, useEffect, useState } from 'react';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { formErrorMessage } from '@/components/form-errors';
import { Button } from '@/components/ui/button';
import { useRouteMutation } from '@/lib/browser-client/use-route-mutation';
import type { OperatorSummary } from '@/lib/operators/contract';
import { roleGiven } from '@/lib/operators/grants';
import { operatorRoutes } from '@/lib/operators/routes';
import { type Role, roles } from '@/lib/roles';
import { twoFactorRoutes } from '@/lib/two-factor/routes';
import { EndSessionsButton } from './end-sessions-button';

/** Only where the policy makes granting admin wait for another operator: loaded then. */
const ApprovalWaiting = dynamic(() =>
  import('@/components/approval-waiting').then((module) => module.ApprovalWaiting),
);

/** What gives a role that can approve, asked for with a reason where CONSOLE_REQUIRE_APPROVAL names grant-admin. */
type Grant = { role: Role } | { disabled: false };

/**
 * Change one operator's role, disable / enable them, reset their second factor or end their sessions.
 * Where the policy covers giving a role (`approvalRoles`: those that can approve), raising them to it
 * (or enabling such an operator) asks for a reason and then follows the request until another
 * operator decides it: meanwhile the select shows the role they hold, marked waiting; once approved
 * and done, the row is read again.
 */
export function OperatorActions({
  operator,
  approvalRoles = [],
}: {
  operator: OperatorSummary;
  approvalRoles?: readonly Role[];
}) {
  const router = useRouter();
  const [role, setRole] = useState<Role>(operator.role ?? 'viewer');
  // The list read again (a decision carried out, another admin's change): the select follows it.
  useEffect(() => setRole(operator.role ?? 'viewer'), [operator.role]);
  const [asking, setAsking] = useState<Grant | null>(null);
  const [reason, setReason] = useState('');
  const [waitingFor, setWaitingFor] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);
  const [confirmingReset, setConfirmingReset] = useState(false);
  // Each change reads the server-rendered list of operators again. A new role applies to their next
  // request; disabling ends their sessions; a reset turns off their second factor (a lost phone).
  const params = { id: operator.id };
  const resetTwoFactor = useRouteMutation(twoFactorRoutes.resetSecondFactor, {
    params,
    refresh: true,
    onSuccess: () => setConfirmingReset(false),
  });
  const changeRole = useRouteMutation(operatorRoutes.updateOperator, { params, refresh: true });
  const setDisabled = useRouteMutation(operatorRoutes.updateOperator, {
    params,
    refresh: true,
    onSuccess: () => setConfirming(false),
  });
  const askAdmin = useRouteMutation(operatorRoutes.updateOperator, {
    params,
    refresh: true,
    onSuccess: () => setAsking(null),
    onWaiting: ({ approvalId }) => {
      setAsking(null);
      // Nothing has changed yet: the select says the role they hold, the line below what waits.
      setRole(operator.role ?? 'viewer');
      setWaitingFor(approvalId);
      setDecisionOver(false);
    },
  });
  const decided = useCallback(() => router.refresh(), [router]);
  const [decisionOver, setDecisionOver] = useState(false);
  const ended = useCallback(() => setDecisionOver(true), []);
  const pending =
    changeRole.isPending || setDisabled.isPending || resetTwoFactor.isPending || askAdmin.isPending;
  // Each change starts by clearing the others' errors, so the one shown is the latest.
  const error = changeRole.error ?? setDisabled.error ?? resetTwoFactor.error;

  /** Whether this change gives a role the policy makes wait for another operator. */
  const needsApproval = (change: Grant) => {
    const given = roleGiven(change, operator);
    return given !== null && approvalRoles.includes(given);
  };
  function ask(change: Grant) {
    for (const each of [changeRole, setDisabled, resetTwoFactor, askAdmin]) each.reset();
    setReason('');
    setWaitingFor(null);
    setAsking(change);
  }
  function changeRoleTo(newRole: Role) {
    if (needsApproval({ role: newRole })) return ask({ role: newRole });
    setDisabled.reset();
    resetTwoFactor.reset();
    changeRole.mutate({ role: newRole });
  }
  function disable(disabled: boolean) {
    if (!disabled && needsApproval({ disabled: false })) return ask({ disabled: false });
    changeRole.reset();
    resetTwoFactor.reset();
    setDisabled.mutate({ disabled });
  }

  return (
    <div className="flex flex-col gap-2">
      <div className="flex flex-wrap items-center gap-2">
        {operator.managedByDirectory ? (
          <span className="text-xs text-muted-foreground">Role and status come from your directory.</span>
        ) : (
          <>
            <label className="sr-only" htmlFor={`role-${operator.id}`}>
              Role of {operator.email}
            </label>
            <select
              id={`role-${operator.id}`}
              value={role}
              onChange={(event) => setRole(event.target.value as Role)}
              className="h-8 rounded-md border border-input bg-card px-2 text-xs"
            >
              {roles.map((option) => (
                <option key={option} value={option}>
                  {option}
                </option>
              ))}
            </select>
            <Button
              size="sm"
              variant="outline"
              disabled={pending || role === operator.role}
              onClick={() => changeRoleTo(role)}
            >
              Change role
            </Button>
            {waitingFor && !decisionOver ? (
              <span className="text-xs text-muted-foreground" data-testid="operator-row-waiting">
                waiting for approval
              </span>
            ) : null}
            {operator.disabled ? (
              <Button size="sm" variant="outline" disabled={pending} onClick={() => disable(false)}>
                Enable
              </Button>
            ) : (
              <Button size="sm" variant="destructive" disabled={pending} onClick={() => setConfirming(true)}>
                Disable
              </Button>
            )}
          </>
        )}
        {operator.twoFactorEnabled ? (
          <Button size="sm" variant="outline" disabled={pending} onClick={() => setConfirmingReset(true)}>
            Reset two-factor
          </Button>
        ) : null}
        {operator.disabled ? null : <EndSessionsButton operatorId={operator.id} email={operator.email} />}
      </div>
      {error ? (
        <p role="alert" className="text-xs font-medium text-destructive">
          {formErrorMessage(error)}
        </p>
      ) : null}
      {waitingFor ? <ApprovalWaiting approvalId={waitingFor} onDone={decided} onEnd={ended} /> : null}
      <ConfirmDialog
        open={asking !== null}
        onOpenChange={(open) => {
          if (!open) setAsking(null);
        }}
        title={
          asking && 'disabled' in asking
            ? `Ask to enable ${operator.email}, a ${operator.role ?? ''}?`
            : `Ask to make ${operator.email} ${asking && 'role' in asking ? asking.role : ''}?`
        }
        description="This role can approve what the policy names, so giving it waits for another operator's approval: nothing changes until they approve."
        confirmLabel="Ask for approval"
        pending={askAdmin.isPending}
        pendingLabel="Asking…"
        reason={{ label: 'Reason (another operator reads it)', value: reason, onChange: setReason }}
        error={askAdmin.error ? formErrorMessage(askAdmin.error) : null}
        onConfirm={() => asking && askAdmin.mutate(Object.assign({ ...asking }, { approvalReason: reason }))}
      />
      <ConfirmDialog
        open={confirming}
        onOpenChange={setConfirming}
        title={`Disable ${operator.email}?`}
        description="Their sessions end now and they cannot sign in until an admin enables them again."
        confirmLabel="Disable operator"
        destructive
        pending={pending}
        pendingLabel="Disable operator"
        onConfirm={() => disable(true)}
      />
      <ConfirmDialog
        open={confirmingReset}
        onOpenChange={setConfirmingReset}
        title={`Reset the second factor of ${operator.email}?`}
        description="Their authenticator app, backup codes and passkeys stop working. They sign in with their password alone and, where their role must have a second factor, set up a new one at once."
        confirmLabel="Reset two-factor"
        destructive
        pending={resetTwoFactor.isPending}
        pendingLabel="Reset two-factor"
        onConfirm={() => {
          changeRole.reset();
          setDisabled.reset();
          resetTwoFactor.mutate();
        }}
      />
    </div>
  );
}
