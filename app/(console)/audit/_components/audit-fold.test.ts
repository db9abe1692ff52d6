import { describe, expect, it } from 'vitest';
import type { AuditItem } from '@/lib/audit/listing';
import type { AuditEvent } from '@/lib/audit/store';
import { summariseFold } from './audit-fold';

type Outcome = { action: string; outcome: string; entries: number };

function fold(outcomes: Outcome[], details: (string | null)[] = []): Extract<AuditItem, { kind: 'request' }> {
  return {
    kind: 'request',
    requestId: 'job-1',
    entries: outcomes.reduce((sum, outcome) => sum + outcome.entries, 0),
    outcomes,
    events: details.map((detail, index) => ({ id: index, detail }) as unknown as AuditEvent),
  };
}

describe('summariseFold', () => {
  it('counts a bulk rotation’s rows, apart from the job’s own entries', () => {
    expect(
      summariseFold(
        fold([
          { action: 'bulk.rotate', outcome: 'failed_rows', entries: 1 },
          { action: 'rotate', outcome: 'success', entries: 298 },
          { action: 'rotate', outcome: 'not_found', entries: 2 },
          { action: 'bulk.download', outcome: 'success', entries: 1 },
        ]),
      ),
    ).toEqual({ title: 'bulk rotate: 300 rows (298 success, 2 failed)', bulk: true, failed: 2 });
  });

  it('reads a job from its rows when the filters leave its own entries out', () => {
    expect(
      summariseFold(
        fold([{ action: 'get-or-create', outcome: 'success', entries: 1 }], ['bulk job 1a2b3c4d, line 2']),
      ),
    ).toEqual({ title: 'bulk get-or-create: 1 row (1 success, 0 failed)', bulk: true, failed: 0 });
  });

  it('a running job is not a failure; a fold without rows counts entries', () => {
    expect(
      summariseFold(
        fold([
          { action: 'bulk.rotate', outcome: 'started', entries: 1 },
          { action: 'bulk.rotate', outcome: 'success', entries: 1 },
        ]),
      ),
    ).toEqual({ title: 'bulk rotate: 2 entries', bulk: true, failed: 0 });
  });

  it('entries of another shared request are just counted', () => {
    expect(summariseFold(fold([{ action: 'sign-in', outcome: 'success', entries: 2 }]))).toEqual({
      title: '2 entries of one request',
      bulk: false,
      failed: 0,
    });
  });
});
