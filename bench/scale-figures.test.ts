import { describe, expect, it } from 'vitest';
import {
  checkRows,
  csvRows,
  growth,
  heaviest,
  htmlTableRows,
  jsonRows,
  percentile,
  responsiveness,
  scaleFigure,
} from './scale-figures';

describe('the scale bench figures', () => {
  it('takes the nearest-rank percentile, and refuses no samples', () => {
    const samples = Array.from({ length: 20 }, (_, i) => i + 1);
    expect(percentile(samples, 50)).toBe(10);
    expect(percentile(samples, 95)).toBe(19);
    expect(percentile([7.26], 95)).toBe(7.3);
    expect(() => percentile([], 95)).toThrow('no samples');
  });

  it('counts growth from 5 ms, below which a ratio measures noise', () => {
    expect(growth(1, 4)).toBe(1);
    expect(growth(2, 10)).toBe(2);
    expect(growth(40, 60)).toBe(1.5);
  });

  it('fails a figure over no rows, and a no-match figure that found some', () => {
    expect(() => checkRows('audit, one day', 'large', 0, 'rows')).toThrow('selected no rows');
    expect(() => checkRows('directory, no match', 'small', 3, 'none')).toThrow('meant to match nothing');
    expect(() => checkRows('audit, one day', 'large', 50, 'rows')).not.toThrow();
    expect(() => checkRows('directory, no match', 'small', 0, 'none')).not.toThrow();
  });

  it("counts an answer's rows: CSV lines, table rows, a JSON array", () => {
    expect(csvRows('id,at\n1,x\n2,y\n')).toBe(2);
    expect(csvRows('id,at\n')).toBe(0);
    expect(htmlTableRows('<table><tr><th>a</th></tr><tr class="x"><td>1</td></tr><tr><td>2</td></tr>')).toBe(
      2,
    );
    expect(htmlTableRows('<p>No audit entries match these filters.</p>')).toBe(0);
    expect(jsonRows('events')('{"events":[{},{}],"total":2}')).toBe(2);
    expect(() => jsonRows('groups')('{"error":{"code":"read_too_long"}}')).toThrow('no array "groups"');
  });

  it('holds a figure to the growth and p95 goals, and says when an answer was not a 200', () => {
    const fast = { samples: [10, 12, 14], rows: 50 };
    const figure = scaleFigure('audit, unfiltered', 100, fast, { samples: [11, 13, 30], rows: 50 });
    expect(figure).toMatchObject({ growth: 2.14, withinGrowth: false, withinP95: true, answered: true });
    const refused = scaleFigure('directory, two letters', 100, fast, {
      samples: [5001],
      rows: 0,
      failures: ['422 read_too_long'],
    });
    expect(refused).toMatchObject({ withinP95: false, answered: false });
    expect(scaleFigure('export', null, fast, fast).withinP95).toBe(true);
    const slowWhenSmall = scaleFigure('directory, wonka', 100, { samples: [3000], rows: 25 }, fast);
    expect(slowWhenSmall).toMatchObject({ withinGrowth: true, withinP95: false });
  });

  it('compares health and sign-in under load with at rest, within 100 ms', () => {
    expect(responsiveness('health', [3, 4, 5], [50, 60, 104]).within).toBe(true);
    const slowed = responsiveness('health', [3, 4, 5], [50, 60, 106]);
    expect(slowed).toMatchObject({ addedMs: 101, within: false });
  });

  it('picks the heaviest by their large p50', () => {
    const asks = ['a', 'b', 'c', 'd', 'e'].map((name) => ({ name }));
    const p50: Record<string, number> = { a: 5, b: 50, c: 1, d: 20, e: 30 };
    expect(heaviest(asks, (ask) => p50[ask.name] ?? 0, 2).map((ask) => ask.name)).toEqual(['b', 'e']);
  });
});
