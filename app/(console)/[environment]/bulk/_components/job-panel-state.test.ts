import { describe, expect, it } from 'vitest';
import type { JobView } from '@/lib/jobs/contract';
import {
  cancelConfirmation,
  draftSummary,
  durationText,
  endedAnnouncement,
  jobControls,
  jobEnded,
  jobFigures,
  jobProgress,
  rowsHeading,
  runLabel,
  startConfirmation,
  type TokenDownload,
  tokensConfirmation,
  tokensDownloadOffered,
  tokensNote,
  upstreamPollMs,
} from './job-panel-state';

const counts = (changes: Partial<JobView['counts']> = {}): JobView['counts'] => ({
  total: 300,
  invalid: 0,
  pending: 0,
  sending: 0,
  done: 298,
  failed: 2,
  ...changes,
});

const job = (changes: Partial<JobView> = {}): JobView => ({
  id: 'job-1',
  environment: 'Customer',
  kind: 'rotate',
  status: 'finished',
  source: 'tokens.csv',
  input: 'tokens-file',
  createdAt: '2026-11-26T17:00:00.000Z',
  createdBy: 'ada@example.com',
  startedAt: null,
  finishedAt: null,
  pausedReason: null,
  tokensErasedAt: null,
  tokensTakenBy: null,
  counts: counts(),
  ratePerMinute: null,
  secondsLeft: null,
  invalidRows: [],
  failedRows: [],
  ...changes,
});

const statuses: JobView['status'][] = ['draft', 'running', 'paused', 'cancelled', 'finished'];
const allowed: TokenDownload = { allowed: true };
const refused: TokenDownload = { allowed: false, reason: 'Only the operator who started it may.' };

describe('what a job’s status allows', () => {
  it.each([
    ['draft', { start: true, pause: false, resume: false, cancel: true }],
    ['running', { start: false, pause: true, resume: false, cancel: true }],
    ['paused', { start: false, pause: false, resume: true, cancel: true }],
  ] as const)('a %s job offers %o', (status, controls) => {
    expect(jobControls(job({ status }), true)).toEqual(controls);
  });

  it('offers no control once ended, nor to a role that may not steer', () => {
    expect(jobControls(job({ status: 'finished' }), true)).toBeNull();
    expect(jobControls(job({ status: 'cancelled' }), true)).toBeNull();
    for (const status of statuses) expect(jobControls(job({ status }), false)).toBeNull();
  });

  it('offers no Run for a draft without rows, only Cancel', () => {
    expect(jobControls(job({ status: 'draft', counts: counts({ total: 0 }) }), true)).toEqual({
      start: false,
      pause: false,
      resume: false,
      cancel: true,
    });
  });

  it('counts finished and cancelled jobs as ended, and asks the service more often while running', () => {
    expect(statuses.filter(jobEnded)).toEqual(['cancelled', 'finished']);
    expect(statuses.map(upstreamPollMs)).toEqual([30_000, 10_000, 30_000, 30_000, 30_000]);
  });
});

describe('what the job panel says', () => {
  it('sums up a draft, with and without rows that have problems', () => {
    expect(draftSummary({ total: 1, invalid: 0 })).toBe('1 row is ready to run; no row has a problem.');
    expect(draftSummary({ total: 3, invalid: 1 })).toBe(
      '3 rows are ready to run; 1 row has problems and will not be sent (listed below). Run the good rows, or fix the file and upload it again.',
    );
    expect(draftSummary({ total: 3, invalid: 2 })).toContain('2 rows have problems and will not be sent');
  });

  it.each([
    ['get-or-create', 'groups-file', 'Run the good rows, or fix the file and upload it again.'],
    ['rotate', 'tokens-file', 'Run the good rows, or fix the file and upload it again.'],
    ['rotate', 'pasted-tokens', 'Run the good rows, or fix the tokens and check them again.'],
    ['rotate', 'directory', 'Run the good rows, or choose the groups again in the directory.'],
    ['rotate', null, 'Run the good rows, or fix the list and check it again.'],
  ] as const)('advises a %s draft made from %s in its own words', (kind, input, advice) => {
    expect(draftSummary({ total: 3, invalid: 1 }, { kind, input }).endsWith(advice)).toBe(true);
  });

  it('says a job cancelled before it started sent nothing', () => {
    expect(endedAnnouncement(job({ status: 'cancelled', startedAt: null }))).toBe(
      'Job cancelled before it started: nothing was sent.',
    );
    expect(endedAnnouncement(job({ status: 'cancelled', startedAt: '2026-11-26T17:01:00.000Z' }))).toBe(
      'Job cancelled: 298 done, 2 failed.',
    );
  });

  it('measures progress by rows settled, done or failed', () => {
    expect(jobProgress(counts({ total: 300, done: 100, failed: 1 }))).toEqual({
      settled: 101,
      percent: 33,
      valueText: '33%: 101 of 300 rows',
    });
    expect(jobProgress(counts({ total: 0, done: 0, failed: 0 })).percent).toBe(0);
  });

  it('lists the figures, with — while the rate and time left are not known', () => {
    expect(jobFigures(job({ counts: counts({ done: 10, failed: 1, pending: 5, sending: 2 }) }))).toEqual([
      { label: 'Done', value: '10' },
      { label: 'Failed', value: '1' },
      { label: 'Remaining', value: '7' },
      { label: 'Rate', value: '—' },
      { label: 'Time left', value: '—' },
    ]);
    const running = jobFigures(job({ ratePerMinute: 120, secondsLeft: 90 }));
    expect(running.slice(3)).toEqual([
      { label: 'Rate', value: '120/min' },
      { label: 'Time left', value: '1 min 30 s' },
    ]);
  });

  it('writes a time left in seconds, minutes or hours', () => {
    expect(durationText(0)).toBe('0 s');
    expect(durationText(59)).toBe('59 s');
    expect(durationText(60)).toBe('1 min 0 s');
    expect(durationText(3599)).toBe('59 min 59 s');
    expect(durationText(3600)).toBe('1 h 0 min');
    expect(durationText(7380)).toBe('2 h 3 min');
  });

  it('announces the end of a job, and nothing before', () => {
    expect(endedAnnouncement(job({ status: 'finished' }))).toBe('Job finished: 298 done, 2 failed.');
    expect(endedAnnouncement(job({ status: 'cancelled', startedAt: '2026-11-26T17:01:00.000Z' }))).toBe(
      'Job cancelled: 298 done, 2 failed.',
    );
    expect(endedAnnouncement(job({ status: 'running' }))).toBe('');
  });

  it('labels Run with its rows, and heads a row table with how many the page lists', () => {
    expect(runLabel({ total: 1 })).toBe('Run 1 row');
    expect(runLabel({ total: 300 })).toBe('Run 300 rows');
    expect(rowsHeading('Failed rows', 2, 2)).toBe('Failed rows (2)');
    expect(rowsHeading('Rows with problems', 250, 100)).toBe('Rows with problems (250, first 100 shown)');
  });
});

describe('the result with tokens', () => {
  it('is offered once, to a role allowed, for an ended job whose rows made tokens', () => {
    expect(tokensDownloadOffered(job(), allowed, false)).toBe(true);
    expect(tokensDownloadOffered(job({ status: 'cancelled' }), allowed, false)).toBe(true);
    expect(tokensDownloadOffered(job({ status: 'running' }), allowed, false)).toBe(false);
    expect(tokensDownloadOffered(job(), allowed, true)).toBe(false);
    expect(tokensDownloadOffered(job({ tokensErasedAt: '2026-11-26T17:51:08.123Z' }), allowed, false)).toBe(
      false,
    );
    expect(tokensDownloadOffered(job({ counts: counts({ done: 0 }) }), allowed, false)).toBe(false);
    expect(tokensDownloadOffered(job(), refused, false)).toBe(false);
    expect(tokensDownloadOffered(job(), null, false)).toBe(false);
  });

  it('says who took the tokens and when, once erased', () => {
    const erased = { tokensErasedAt: '2026-11-26T17:51:08.123Z' };
    expect(tokensNote(job({ ...erased, tokensTakenBy: 'ada@example.com' }), allowed, false)).toBe(
      'The tokens were downloaded by ada@example.com on 2026-11-26 17:51 UTC and erased from the console. A group’s current token is on its page (Show token).',
    );
    expect(tokensNote(job(erased), refused, false)).toBe(
      'The tokens were downloaded on 2026-11-26 17:51 UTC and erased from the console. A group’s current token is on its page (Show token).',
    );
  });

  it('says the tokens are gone once taken here, why a role may not take them, and when there are none', () => {
    expect(tokensNote(job(), allowed, true)).toBe(
      'The tokens were downloaded and erased from the console. A group’s current token is on its page (Show token).',
    );
    expect(tokensNote(job(), refused, false)).toBe('Only the operator who started it may.');
    expect(tokensNote(job({ counts: counts({ done: 0 }) }), allowed, false)).toBe(
      'No row produced a token: there are no tokens to download.',
    );
    expect(tokensNote(job(), allowed, false)).toBe(
      'The result with tokens can be downloaded once: the console then erases the tokens it holds. Keep the file safe.',
    );
  });

  it('says nothing to a role that sees no token', () => {
    expect(tokensNote(job(), null, false)).toBeNull();
  });
});

describe('the job’s confirmations', () => {
  it('asks for the number of tokens typed before a rotation in Customer', () => {
    expect(startConfirmation(job({ status: 'draft' }))).toEqual({
      title: 'Rotate 300 tokens (tokens.csv) in Customer (production)?',
      description:
        'Each token is replaced by a new one and stops working at once: every embedded dashboard using it must be given the new token.',
      confirmLabel: 'Rotate tokens',
      typeToConfirm: { kind: 'count', value: '300' },
      destructive: true,
    });
  });

  it('asks for nothing typed before a rotation in Testing, which is still destructive', () => {
    expect(startConfirmation(job({ status: 'draft', environment: 'Testing' }))).toMatchObject({
      title: 'Rotate 300 tokens (tokens.csv) in Testing (sandbox)?',
      typeToConfirm: null,
      destructive: true,
    });
  });

  it('runs a get-or-create plainly, destructive only in Customer', () => {
    const getOrCreate = job({ status: 'draft', kind: 'get-or-create', counts: counts({ total: 1 }) });
    expect(startConfirmation(getOrCreate)).toEqual({
      title: 'Get or create 1 group (tokens.csv) in Customer (production)?',
      description: 'Groups that do not exist are created; existing groups are returned unchanged.',
      confirmLabel: 'Run the job',
      typeToConfirm: null,
      destructive: true,
    });
    expect(startConfirmation({ ...getOrCreate, environment: 'Testing' }).destructive).toBe(false);
  });

  it('words Cancel and the one download of the tokens', () => {
    expect(cancelConfirmation(job({ status: 'draft' }))).toEqual({
      title: 'Cancel the job tokens.csv in Customer (production)?',
      description:
        'The job will not start: none of its 300 rows is sent. To run them later, check the list again as a new job.',
      confirmLabel: 'Cancel the job',
      cancelLabel: 'Keep the draft',
      destructive: true,
    });
    expect(cancelConfirmation(job({ status: 'paused' })).cancelLabel).toBe('Keep it paused');
    expect(cancelConfirmation(job({ status: 'running' }))).toEqual({
      title: 'Cancel the job tokens.csv in Customer (production)?',
      description:
        'Rows not yet sent are not sent; what was done stays done, and its result can still be downloaded.',
      confirmLabel: 'Cancel the job',
      cancelLabel: 'Keep it running',
      destructive: true,
    });
    expect(tokensConfirmation(job())).toEqual({
      title: 'Download the only copy of the tokens of tokens.csv in Customer (production)?',
      description:
        "This file is the only copy of 298 tokens: the console erases them as it hands them out, and cannot give them again. Keep the file safe. If the browser loses the download, each group's current token is still on its page (Show token).",
      confirmLabel: 'Download and erase',
      cancelLabel: 'Not now',
    });
  });
});
