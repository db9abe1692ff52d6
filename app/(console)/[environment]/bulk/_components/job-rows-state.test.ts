import { describe, expect, it } from 'vitest';
import { outcomeLooks, pagerText, rowFilterOptions, rowLinksGroup } from './job-rows-state';

describe('the list of a job’s rows', () => {
  it('offers the outcomes each kind of job can come to', () => {
    expect(rowFilterOptions('get-or-create').map((option) => option.label)).toEqual([
      'All rows',
      'Created',
      'Found, unchanged',
      'Refused',
      'Failed',
      'Not sent yet',
    ]);
    expect(rowFilterOptions('rotate').map((option) => option.value)).toEqual([
      'all',
      'rotated',
      'refused',
      'failed',
      'pending',
    ]);
  });

  it.each([
    ['get-or-create', 'created', true],
    ['get-or-create', 'found', true],
    ['get-or-create', 'refused', false],
    ['get-or-create', 'ready', false],
    ['get-or-create', 'failed', false],
    ['rotate', 'rotated', true],
    ['rotate', 'refused', true],
    ['rotate', 'waiting', true],
  ] as const)('links a %s row that is %s to its group: %s', (kind, outcome, links) => {
    expect(rowLinksGroup(kind, { userGroupId: 'acme', outcome })).toBe(links);
  });

  it('never links a row without a group (a token unknown to the console)', () => {
    expect(rowLinksGroup('rotate', { userGroupId: null, outcome: 'rotated' })).toBe(false);
  });

  it('says which rows a page shows, of how many, and when a filter finds none', () => {
    expect(pagerText(101, 100, 10_000, 'all')).toBe('Rows 101–200 of 10,000');
    expect(pagerText(1, 3, 3, 'created')).toBe('Rows 1–3 of 3');
    expect(pagerText(1, 0, 0, 'failed')).toBe('No row is “Failed”.');
    expect(pagerText(1, 0, 0, 'all')).toBe('No rows.');
  });

  it('words found groups as unchanged, as the start dialog promises', () => {
    expect(outcomeLooks.found.label).toBe('Found, unchanged');
    expect(outcomeLooks['not-sent'].label).toBe('Not sent');
  });
});
