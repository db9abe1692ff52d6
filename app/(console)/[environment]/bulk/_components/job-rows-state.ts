/**
 * What the list of a job's rows says, as pure functions: each outcome's words and look, which
 * outcomes a kind of job can show, where a row's group links, and the pager's line. The list
 * (job-rows-list.tsx) only renders them.
 */
import type { JobRow, JobView, RowFilter, RowOutcome } from '@/lib/jobs/contract';

type BadgeVariant = 'neutral' | 'success' | 'info' | 'danger';

export const outcomeLooks: Record<RowOutcome, { label: string; variant: BadgeVariant }> = {
  created: { label: 'Created', variant: 'success' },
  found: { label: 'Found, unchanged', variant: 'neutral' },
  rotated: { label: 'Rotated', variant: 'success' },
  refused: { label: 'Refused', variant: 'danger' },
  failed: { label: 'Failed', variant: 'danger' },
  ready: { label: 'Ready to run', variant: 'info' },
  waiting: { label: 'Waiting', variant: 'neutral' },
  'not-sent': { label: 'Not sent', variant: 'neutral' },
};

const filterWords: Record<RowFilter, string> = {
  all: 'All rows',
  created: 'Created',
  found: 'Found, unchanged',
  rotated: 'Rotated',
  refused: 'Refused',
  failed: 'Failed',
  pending: 'Not sent yet',
};

/** The choices of the list's "Show" select: what this kind of job's rows can come to. */
export function rowFilterOptions(kind: JobView['kind']): { value: RowFilter; label: string }[] {
  const done: RowFilter[] = kind === 'rotate' ? ['rotated'] : ['created', 'found'];
  return (['all', ...done, 'refused', 'failed', 'pending'] as RowFilter[]).map((value) => ({
    value,
    label: filterWords[value],
  }));
}

/**
 * Whether a row's group has a page to open: any group a rotation names (it exists: it was looked
 * up), but only a get-or-create's group that the job created or found (a refused row's id may not
 * even be a valid one; a row not yet sent may name a group that does not exist).
 */
export function rowLinksGroup(kind: JobView['kind'], row: Pick<JobRow, 'userGroupId' | 'outcome'>): boolean {
  if (row.userGroupId === null) return false;
  return kind === 'rotate' || row.outcome === 'created' || row.outcome === 'found';
}

/** "Rows 101–200 of 10,000", or what the filter found none of. */
export function pagerText(first: number, shown: number, total: number, show: RowFilter): string {
  if (total === 0) return show === 'all' ? 'No rows.' : `No row is “${filterWords[show]}”.`;
  const of = total.toLocaleString('en-US');
  return `Rows ${first.toLocaleString('en-US')}–${(first + shown - 1).toLocaleString('en-US')} of ${of}`;
}
