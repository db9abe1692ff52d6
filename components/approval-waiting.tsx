'use client';

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import type { ApprovalView } from '@/lib/approvals/contract';
import { decideApproval } from '@/lib/approvals/decide';
import { approvalRoutes } from '@/lib/approvals/routes';
import { approvalStateWords } from '@/lib/approvals/words';
import { callRoute } from '@/lib/browser-client/console-client';

const POLL_MS = 3000;

/**
 * The requester's view of an action waiting for approval: its state, followed without a reload
 * (read every few seconds until it ends) and read out as it changes, with Withdraw while it waits.
 */
export function ApprovalWaiting({
  approvalId,
  onDone,
  onEnd,
}: {
  approvalId: string;
  /** Once approved and carried out: the page reads what changed. */
  onDone?: () => void;
  /** Once it ends any way (approved, rejected, withdrawn, expired). */
  onEnd?: () => void;
}) {
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
  const over = approval?.state !== undefined && approval.state !== 'pending';
  const toldEnd = useRef(false);
  useEffect(() => {
    if (over && !toldEnd.current) {
      toldEnd.current = true;
      onEnd?.();
    }
  }, [over, onEnd]);
  return (
    <Alert variant={done ? 'success' : 'notice'} className="flex flex-col items-start gap-3">
      {/* The body's own colour on the success tint: green text on it reads below AA (4.42:1). */}
      <p
        role="status"
        aria-live="polite"
        data-testid="approval-state"
        className={done ? 'text-foreground' : undefined}
      >
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
