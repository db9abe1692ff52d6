'use client';

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { type ApprovalDecision, type ApprovalView, approvalActionWords } from '@/lib/approvals/contract';
import { decideApproval } from '@/lib/approvals/decide';
import { approvalRoutes } from '@/lib/approvals/routes';
import { approvalStateWords, yourDecisionWords } from '@/lib/approvals/words';
import { callRoute } from '@/lib/browser-client/console-client';
import { type Environment, environmentPhrase } from '@/lib/environments';
import { formatUtc } from '@/lib/time';

/** The list and the header's count, read again after a decision (a prefix of both keys). */
const approvalsQueryKey = ['approvals'] as const;

type Deciding = { approval: ApprovalView; decision: 'approve' | 'reject' } | null;

/** The requests, read again every few seconds, each with what the reader may do with it. */
export function ApprovalsList() {
  const queryClient = useQueryClient();
  const router = useRouter();
  const { data, error, isPending } = useQuery({
    queryKey: [...approvalsQueryKey, 'list'],
    queryFn: ({ signal }) => callRoute(approvalRoutes.listApprovals, { signal }),
    refetchInterval: 5000,
  });
  const [deciding, setDeciding] = useState<Deciding>(null);
  const [reason, setReason] = useState('');
  const [said, setSaid] = useState('');
  const decide = useMutation({
    mutationFn: ({ approval, decision }: { approval: ApprovalView; decision: ApprovalDecision }) =>
      decideApproval(approval, decision),
    onSuccess: (answer) => {
      setSaid(`${approvalActionWords[answer.approval.action]}: ${yourDecisionWords(answer.approval)}`);
      setDeciding(null);
      setReason('');
    },
    onSettled: () => {
      // The header's count is the server's: read again.
      router.refresh();
      return queryClient.invalidateQueries({ queryKey: approvalsQueryKey });
    },
  });
  const send = (approval: ApprovalView, decision: ApprovalDecision) => decide.mutate({ approval, decision });

  if (isPending) return <p className="text-sm text-muted-foreground">Loading…</p>;
  if (error)
    return (
      <Alert variant="error" role="alert">
        {error.message}
      </Alert>
    );
  const approvals = data.approvals;
  return (
    <section aria-labelledby="approvals-heading" className="flex flex-col gap-3">
      <h2 id="approvals-heading" className="text-base font-semibold">
        {data.waiting === 1 ? '1 request waits for you' : `${data.waiting} requests wait for you`}
      </h2>
      <p role="status" aria-live="polite" className="text-sm empty:hidden">
        {said}
      </p>
      {decide.error && !deciding ? (
        <Alert variant="error" role="alert">
          {decide.error.message}
        </Alert>
      ) : null}
      {approvals.length === 0 ? (
        <p className="text-sm text-muted-foreground">No request to show.</p>
      ) : (
        <ul
          aria-label="Approval requests"
          className="flex flex-col divide-y divide-border rounded-lg border border-border"
        >
          {approvals.map((approval) => (
            <li
              key={approval.id}
              className="flex flex-col gap-2 px-4 py-3"
              aria-label={`${approvalActionWords[approval.action]}: ${approval.subject}`}
            >
              <p className="font-medium wrap-anywhere">
                {approvalActionWords[approval.action]}
                {inEnvironment(approval)}: {approval.subject}
              </p>
              <p className="text-sm wrap-anywhere">
                Asked by {approval.mine ? 'you' : approval.requestedBy} at {formatUtc(approval.requestedAt)}:{' '}
                “{approval.reason}”
              </p>
              <p className="text-sm text-muted-foreground">{approvalStateWords(approval)}</p>
              <div className="flex flex-wrap gap-2">
                {approval.canDecide ? (
                  <>
                    <Button size="sm" onClick={() => setDeciding({ approval, decision: 'approve' })}>
                      Approve
                    </Button>
                    <Button
                      size="sm"
                      variant="outline"
                      onClick={() => setDeciding({ approval, decision: 'reject' })}
                    >
                      Reject
                    </Button>
                  </>
                ) : null}
                {approval.mine && approval.state === 'pending' ? (
                  <Button
                    size="sm"
                    variant="outline"
                    disabled={decide.isPending}
                    onClick={() => send(approval, { decision: 'withdraw' })}
                  >
                    Withdraw
                  </Button>
                ) : null}
              </div>
            </li>
          ))}
        </ul>
      )}
      <ConfirmDialog
        open={deciding !== null}
        onOpenChange={(open) => {
          if (!open) setDeciding(null);
        }}
        title={
          deciding
            ? `${deciding.decision === 'approve' ? 'Approve' : 'Reject'}: ${approvalActionWords[deciding.approval.action]}${inEnvironment(deciding.approval)}?`
            : ''
        }
        description={
          deciding?.decision === 'approve'
            ? `${deciding.approval.subject}, as ${deciding.approval.requestedBy} asked: it is carried out at once, on record with both your names.`
            : `${deciding?.approval.subject ?? ''}: nothing is done, and ${deciding?.approval.requestedBy ?? ''} reads your reason.`
        }
        confirmLabel={deciding?.decision === 'approve' ? 'Approve and carry out' : 'Reject'}
        destructive={deciding?.decision === 'approve'}
        reason={
          deciding?.decision === 'reject'
            ? { label: 'Reason for rejecting', value: reason, onChange: setReason }
            : null
        }
        pending={decide.isPending}
        error={decide.error && deciding ? decide.error.message : null}
        onConfirm={() => {
          if (!deciding) return;
          send(
            deciding.approval,
            deciding.decision === 'approve' ? { decision: 'approve' } : { decision: 'reject', reason },
          );
        }}
      />
    </section>
  );
}

/** ` in Customer (production)`: production always says so, in the list and in every dialog. */
function inEnvironment(approval: ApprovalView): string {
  return approval.environment ? ` in ${environmentPhrase(approval.environment as Environment)}` : '';
}
