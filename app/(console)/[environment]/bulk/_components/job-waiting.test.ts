import { describe, expect, it } from 'vitest';
import type { JobView } from '@/lib/jobs/contract';
import type { UpstreamStatus } from '@/lib/upstream-status/contract';
import { jobWaiting } from './job-waiting';

const job = (changes: Partial<Pick<JobView, 'status' | 'ratePerMinute'>> & { left?: number } = {}) => ({
  status: changes.status ?? ('running' as const),
  environment: 'Customer' as const,
  ratePerMinute: changes.ratePerMinute ?? null,
  counts: { total: 300, invalid: 0, pending: changes.left ?? 290, sending: 0, done: 10, failed: 0 },
});

const service = (state: UpstreamStatus['state']): UpstreamStatus => ({
  environment: 'Customer',
  state,
  checkedAt: '2026-11-24T10:42:00.000Z',
  lastAnswerAt: '2026-11-24T10:39:00.000Z',
  troubleSince: state === 'answering' || state === 'rate_limited' ? null : '2026-11-24T10:40:00.000Z',
});

describe('jobWaiting', () => {
  it.each([
    ['not_answering', 'Waiting for the Customer service: not answering since 10:40 UTC, retrying.'],
    ['failing', 'Waiting for the Customer service: failing since 10:40 UTC, retrying.'],
    ['key_refused', 'Waiting for the Customer service: API key refused since 10:40 UTC, retrying.'],
    ['rate_limited', 'Waiting for the Customer service: it is rate limiting the console, retrying.'],
  ] as const)('a stalled job with its service %s says %s', (state, text) => {
    expect(jobWaiting(job(), service(state))).toBe(text);
  });

  it('says nothing while rows settle, when none is left, when not running, or when the service answers', () => {
    expect(jobWaiting(job({ ratePerMinute: 120 }), service('not_answering'))).toBeNull();
    expect(jobWaiting(job({ left: 0 }), service('not_answering'))).toBeNull();
    expect(jobWaiting(job({ status: 'paused' }), service('not_answering'))).toBeNull();
    expect(jobWaiting(job(), service('answering'))).toBeNull();
    expect(jobWaiting(job(), service('not_configured'))).toBeNull();
    expect(jobWaiting(job(), undefined)).toBeNull();
  });
});
