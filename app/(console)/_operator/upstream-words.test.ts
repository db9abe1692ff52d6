import { describe, expect, it } from 'vitest';
import type { UpstreamStatus } from '@/lib/upstream-status/contract';
import { describeUpstream, lastChecked } from './upstream-words';

const status = (state: UpstreamStatus['state'], troubleSince: string | null = null): UpstreamStatus => ({
  environment: 'Customer',
  state,
  checkedAt: '2026-11-24T10:42:07.000Z',
  lastAnswerAt: '2026-11-24T10:39:59.000Z',
  troubleSince,
});

describe('describeUpstream', () => {
  it.each([
    [status('answering'), 'Customer: answering', 'well'],
    [status('rate_limited'), 'Customer: answering, rate limiting the console', 'limited'],
    [
      status('not_answering', '2026-11-24T10:40:00.000Z'),
      'Customer: not answering since 10:40 UTC',
      'trouble',
    ],
    [status('failing', '2026-11-24T10:41:00.000Z'), 'Customer: failing since 10:41 UTC', 'trouble'],
    [
      status('key_refused', '2026-11-24T10:40:00.000Z'),
      'Customer: API key refused since 10:40 UTC',
      'trouble',
    ],
    [{ ...status('not_configured'), checkedAt: null }, 'Customer: not set up', 'off'],
  ])('%o reads %s', (given, text, tone) => {
    expect(describeUpstream(given)).toEqual({ text, tone });
  });
});

describe('lastChecked', () => {
  it('says when the newest probe answered, or nothing before any', () => {
    const testing = {
      ...status('answering'),
      environment: 'Testing' as const,
      checkedAt: '2026-11-24T10:43:01.000Z',
    };
    expect(lastChecked([status('answering'), testing])).toBe('checked 10:43 UTC');
    expect(lastChecked([{ ...status('not_configured'), checkedAt: null }])).toBeNull();
    expect(lastChecked([])).toBeNull();
  });
});
