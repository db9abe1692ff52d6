import { describe, expect, it } from 'vitest';
import type { ApprovalView } from './contract';
import { approvalStateWords, yourDecisionWords } from './words';

const request: ApprovalView = {
  id: 'a1',
  action: 'grant-admin',
  environment: null,
  subject: 'dana@example.com as admin',
  reason: 'on call',
  requestedBy: 'ann@example.com',
  requestedAt: '2030-01-01T00:00:00.000Z',
  expiresAt: '2030-01-01T01:00:00.000Z',
  state: 'pending',
  decidedBy: null,
  decidedAt: null,
  decisionReason: null,
  outcome: null,
  method: 'PATCH',
  path: '/api/operators/x',
  canDecide: false,
  mine: true,
};

describe('what a request says to whoever reads it', () => {
  it('tells its requester it waits for another operator, and an approver that it waits for them', () => {
    expect(approvalStateWords(request)).toMatch(/^Waiting for approval by another operator/);
    const forApprover = approvalStateWords({ ...request, mine: false, canDecide: true });
    expect(forApprover).toMatch(/^Waiting for your decision/);
    expect(forApprover).not.toContain('another operator,');
  });

  it('tells the one who approved it that they did', () => {
    const approved = { ...request, mine: false, state: 'approved' as const, decidedBy: 'bo@example.com' };
    expect(yourDecisionWords({ ...approved, outcome: 'success' })).toBe('Approved by you and done.');
    expect(yourDecisionWords({ ...approved, outcome: 'conflict' })).toBe(
      'Approved by you, but it failed (conflict).',
    );
    expect(approvalStateWords({ ...approved, mine: true, outcome: 'success' })).toBe(
      'Approved by bo@example.com and done.',
    );
  });
});
