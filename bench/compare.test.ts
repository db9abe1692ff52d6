import { describe, expect, it } from 'vitest';
import { compareRuns } from './compare';

const run = (getOrCreate: number, rotate: number) => ({
  service: [
    { scenario: 'get-or-create (existing)', figure: { ratio: getOrCreate } },
    { scenario: 'rotate', figure: { ratio: rotate } },
  ],
});

describe('comparing a run with the previous one', () => {
  it('flags the figures that moved more than 15%, and only those', () => {
    const comparisons = compareRuns(run(0.4, 0.2), run(0.44, 0.24));
    expect(comparisons.map(({ figure, change, within }) => ({ figure, change, within }))).toEqual([
      { figure: 'service: get-or-create (existing)', change: 1.1, within: true },
      { figure: 'service: rotate', change: 1.2, within: false },
    ]);
  });

  it('compares only what both runs measured, and nothing against a file that is not a run', () => {
    expect(compareRuns({ bulk: { ratio: 0.5 } }, run(0.4, 0.2))).toEqual([]);
    expect(compareRuns('garbage', run(0.4, 0.2))).toEqual([]);
  });

  it('still compares the other sections when the console section has an older shape', () => {
    const older = { ...run(0.4, 0.2), console: { throughput: { ratio: 0.3 }, onePerson: [] } };
    expect(compareRuns(older, run(0.4, 0.2)).map(({ figure }) => figure)).toEqual([
      'service: get-or-create (existing)',
      'service: rotate',
    ]);
  });
});
