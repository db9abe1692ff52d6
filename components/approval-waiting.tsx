'use client';

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import type { ApprovalView } from '@/lib/approvals/contract';
import { decideApproval } from '@/lib/approvals/decide';
import { approvalRoutes } from '@/lib/approvals/routes';
import { callRoute } from '@/lib/browser-client/console-client';
import { formatUtc } from '@/lib/time';

const POLL_MS = 3000;

/** What the requester reads of their request as it stands. */
export function approvalStateWords(approval: ApprovalView): string {
  switch (approval.state) {
    case 'pending':
      return `Waiting for approval by another operator, until ${formatUtc(approval.expiresAt)}. Nothing has been done yet.`;
    case 'approved':
      if (approval.outcome === null) return `Approved by ${approval.decidedBy}: being carried out…`;
      return approval.outcome === 'success'
        ? `Approved by ${approval.decidedBy} and done.`
        : `Approved by ${approval.decidedBy}, but it failed (${approval.outcome}).`;
    case 'rejected':
      return `Rejected by ${approval.decidedBy}: ${approval.decisionReason ?? ''}`;
    case 'withdrawn':
      return 'Withdrawn: nothing was done.';
    case 'expired':
      return 'Expired before anyone approved it: nothing was done.';
  }
}

/**
 * The requester's view of an action waiting for approval: its state, followed without a reload
 * (read every few seconds until it ends) and read out as it changes, with Withdraw while it waits.
 */
export function ApprovalWaiting({ approvalId, onDone }: { approvalId: string; onDone?: () => void }) {
  const queryClient = useQueryClient();
  const queryKey = ['approval', approvalId];
  const { data, error } = useQuery({
    queryKey,
    queryFn: ({ signal }) => callRoute(approvalRoutes.readApproval, { params: { id: approvalId }, signal }),
    refetchInterval: (query) => (ended(query.state.data?.approval) ? false : POLL_MS),
  });
  const approval = data?.approval;
  const withdraw = useMutation({
    mutationFn: (view: ApprovalView) => decideApproval(view, { decision: 'withdraw' }),
    onSuccess: (answer) => queryClient.setQueryData(queryKey, { approval: answer.approval }),
  });
  const done = approval?.state === 'approved' && approval.outcome === 'success';
  const told = useRef(false);
  useEffect(() => {
    if (done && !told.current) {
      told.current = true;
      onDone?.();
    }
  }, [done, onDone]);
  return (
    <Alert variant={done ? 'success' : 'notice'} className="flex flex-col items-start gap-3">
      <p role="status" aria-live="polite" data-testid="approval-state">
        {approval ? approvalStateWords(approval) : 'Waiting for approval by another operator.'}
      </p>
      {error || withdraw.error ? <p role="alert">{(withdraw.error ?? error)?.message}</p> : null}
      {approval?.state === 'pending' && approval.mine ? (
        <Button
          variant="outline"
          size="sm"
          disabled={withdraw.isPending}
          onClick={() => withdraw.mutate(approval)}
        >
          {withdraw.isPending ? 'Withdrawing…' : 'Withdraw request'}
        </Button>
      ) : null}
    </Alert>
  );
}

function ended(approval: ApprovalView | undefined): boolean {
  if (!approval) return false;
  return approval.state !== 'pending' && (approval.state !== 'approved' || approval.outcome !== null);
}
