/**
 * What a request says to whoever reads it, in their own words: its requester waits for another
 * operator, one who may decide it is waited for, and one who just decided reads their decision.
 * Plain module: the browser imports it.
 */
import { formatUtc } from '@/lib/time';
import type { ApprovalView } from './contract';

/**
 * What a request says as it stands, to whoever reads it: its requester waits for another operator;
 * one who may decide it is waited for.
 */
export function approvalStateWords(approval: ApprovalView): string {
  switch (approval.state) {
    case 'pending':
      if (approval.canDecide)
        return `Waiting for your decision (or another approver's), until ${formatUtc(approval.expiresAt)}. Nothing has been done yet.`;
      return approval.mine
        ? `Waiting for approval by another operator, until ${formatUtc(approval.expiresAt)}. Nothing has been done yet.`
        : `Waiting for another operator's decision, until ${formatUtc(approval.expiresAt)}. Nothing has been done yet.`;
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

/** What the one who just decided reads: their own decision, in their words. */
export function yourDecisionWords(approval: ApprovalView): string {
  if (approval.state === 'approved' && !approval.mine) {
    if (approval.outcome === null) return 'Approved by you: being carried out…';
    return approval.outcome === 'success'
      ? 'Approved by you and done.'
      : `Approved by you, but it failed (${approval.outcome}).`;
  }
  if (approval.state === 'rejected' && !approval.mine) return 'Rejected by you: nothing was done.';
  return approvalStateWords(approval);
}
