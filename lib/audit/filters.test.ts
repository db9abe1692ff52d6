import { describe, expect, it } from 'vitest';
import { escapeLike } from '@/lib/db/like';
import { auditFiltersQuery, parseAuditFilters, upperBound } from './filters';

// What the filters select, on a database of entries, is in store.test.ts; here, their parsing.
describe('audit filters', () => {
  it('take LIKE wildcards literally', () => {
    expect(escapeLike('100%_a\\b')).toBe('100\\%\\_a\\\\b');
  });

  it('keep reads out unless asked (a support person’s walk, round 3)', () => {
    expect(auditFiltersQuery({ reads: true })).toBe('reads=include');
    expect(auditFiltersQuery({ reads: false })).toBe('');
  });

  it('ignore blank fields, as an empty form submits them', () => {
    const parsed = parseAuditFilters(
      new URLSearchParams({ operator: ' ', action: '', group: '', from: '', to: '', before: '' }),
    );
    expect(parsed).toEqual({ success: true, filters: { reads: false } });
  });

  it('never take exactGroup from the query string (a group page sets it on the server)', () => {
    const parsed = parseAuditFilters(new URLSearchParams({ group: 'acme', exactGroup: 'true' }));
    expect(parsed).toEqual({ success: true, filters: { group: 'acme', reads: false } });
  });
});

describe('parseAuditFilters', () => {
  it.each([
    [{ action: 'steal' }, 'action'],
    [{ from: 'yesterday' }, 'from'],
    [{ from: '2026-02-30' }, 'from'],
    [{ before: '0' }, 'before'],
    [{ after: 'x' }, 'after'],
    [{ from: '2026-11-21', to: '2026-11-20' }, 'to'],
  ])('refuses %o (field %s)', (params, field) => {
    const parsed = parseAuditFilters(new URLSearchParams(params));
    expect(parsed.success).toBe(false);
    if (!parsed.success) expect(Object.keys(parsed.fields)).toContain(field);
  });

  it('says a reversed range in the words of the page, not of the code', () => {
    const parsed = parseAuditFilters(new URLSearchParams({ from: '2026-11-21', to: '2026-11-20' }));
    expect(parsed).toEqual({ success: false, fields: { to: 'must not be earlier than From' } });
  });

  it('reads Next searchParams objects, first of repeated values', () => {
    const parsed = parseAuditFilters({ action: ['delete', 'rotate'], before: '3' });
    expect(parsed).toEqual({ success: true, filters: { action: 'delete', before: 3, reads: false } });
  });

  it('round-trips through the query string it builds', () => {
    const query = auditFiltersQuery(
      { operator: 'a@b.example', action: 'sign-in', to: '2026-11-21T10:00' },
      { before: 120 },
    );
    expect(query).toBe('operator=a%40b.example&action=sign-in&to=2026-11-21T10%3A00&before=120');
    const parsed = parseAuditFilters(new URLSearchParams(query));
    expect(parsed.success && parsed.filters.before).toBe(120);
  });
});

describe('upperBound (inclusive `to`)', () => {
  it.each([
    ['2026-11-21', '2026-11-22T00:00:00.000Z'],
    ['2026-11-21T10:15', '2026-11-21T10:16:00.000Z'],
    ['2026-11-21T10:15:30', '2026-11-21T10:15:31.000Z'],
    ['2026-12-31', '2027-01-01T00:00:00.000Z'],
  ])('%s ends before %s', (value, expected) => {
    expect(upperBound(value)).toBe(expected);
  });
});
