import { DummyDriver, Kysely, SqliteAdapter, SqliteIntrospector, SqliteQueryCompiler } from 'kysely';
import { describe, expect, it } from 'vitest';
import type { ConsoleTables } from '@/lib/db/console-database';
import { escapeLike } from '@/lib/db/like';
import { applyAuditFilters, auditFiltersQuery, parseAuditFilters, upperBound } from './filters';

const db = new Kysely<ConsoleTables>({
  dialect: {
    createAdapter: () => new SqliteAdapter(),
    createDriver: () => new DummyDriver(),
    createIntrospector: (kysely) => new SqliteIntrospector(kysely),
    createQueryCompiler: () => new SqliteQueryCompiler(),
  },
});

/** The SQL of a query string; reads included unless it says otherwise (their own tests below). */
function compile(params: Record<string, string>) {
  const parsed = parseAuditFilters(new URLSearchParams({ reads: 'include', ...params }));
  if (!parsed.success) throw new Error(JSON.stringify(parsed.fields));
  return applyAuditFilters(db.selectFrom('audit_event').selectAll(), parsed.filters).compile();
}

describe('audit filters to SQL', () => {
  it('selects everything without filters', () => {
    const { sql, parameters } = compile({});
    expect(sql).toBe('select * from "audit_event"');
    expect(parameters).toEqual([]);
  });

  it('combines every filter with and, values as parameters', () => {
    const { sql, parameters } = compile({
      operator: 'Ann',
      action: 'rotate',
      group: 'acme-1',
      from: '2026-11-01',
      to: '2026-11-21',
    });
    expect(sql).toBe(
      'select * from "audit_event" where (lower("operator_email") like lower(?) escape \'\\\' and "action" = ? and lower("user_group_id") like lower(?) escape \'\\\' and "at" >= ? and "at" < ?)',
    );
    expect(parameters).toEqual([
      '%Ann%',
      'rotate',
      '%acme-1%',
      '2026-11-01T00:00:00.000Z',
      '2026-11-22T00:00:00.000Z',
    ]);
  });

  it('matches part of a group id, as the directory search does, wildcards taken literally', () => {
    const { sql, parameters } = compile({ group: 'ACME_1%' });
    expect(sql).toBe('select * from "audit_event" where lower("user_group_id") like lower(?) escape \'\\\'');
    expect(parameters).toEqual(['%ACME\\_1\\%%']);
  });

  it('matches a group id exactly for a group page (exactGroup, never from the query string)', () => {
    const parsed = parseAuditFilters(new URLSearchParams({ group: 'acme', exactGroup: 'true' }));
    expect(parsed).toEqual({ success: true, filters: { group: 'acme', page: 1, reads: false } });
    const { sql, parameters } = applyAuditFilters(db.selectFrom('audit_event').selectAll(), {
      group: 'acme',
      exactGroup: true,
    }).compile();
    expect(sql).toBe('select * from "audit_event" where "user_group_id" = ?');
    expect(parameters).toEqual(['acme']);
  });

  it('takes LIKE wildcards in the person filter literally', () => {
    expect(escapeLike('100%_a\\b')).toBe('100\\%\\_a\\\\b');
    expect(compile({ operator: '%' }).parameters).toEqual(['%\\%%']);
  });

  it('lists changes only unless reads are asked for, or an action is (a support person’s walk, round 3)', () => {
    const changesOnly = compile({ reads: '' });
    expect(changesOnly.sql).toBe('select * from "audit_event" where "action" not in (?, ?, ?, ?)');
    expect(changesOnly.parameters).toEqual(['show-token', 'token.identify', 'audit.read', 'audit.export']);
    expect(compile({ reads: 'include' }).sql).toBe('select * from "audit_event"');
    expect(compile({ reads: '', action: 'show-token' }).sql).toBe(
      'select * from "audit_event" where "action" = ?',
    );
    expect(auditFiltersQuery({ reads: true })).toBe('reads=include');
    expect(auditFiltersQuery({ reads: false })).toBe('');
  });

  it('ignores blank fields, as an empty form submits them', () => {
    const { sql } = compile({ operator: ' ', action: '', group: '', from: '', to: '', page: '' });
    expect(sql).toBe('select * from "audit_event"');
  });
});

describe('parseAuditFilters', () => {
  it.each([
    [{ action: 'steal' }, 'action'],
    [{ from: 'yesterday' }, 'from'],
    [{ from: '2026-02-30' }, 'from'],
    [{ page: '0' }, 'page'],
    [{ from: '2026-11-21', to: '2026-11-20' }, 'to'],
  ])('refuses %o (field %s)', (params, field) => {
    const parsed = parseAuditFilters(new URLSearchParams(params));
    expect(parsed.success).toBe(false);
    if (!parsed.success) expect(Object.keys(parsed.fields)).toContain(field);
  });

  it('reads Next searchParams objects, first of repeated values', () => {
    const parsed = parseAuditFilters({ action: ['delete', 'rotate'], page: '3' });
    expect(parsed).toEqual({ success: true, filters: { action: 'delete', page: 3, reads: false } });
  });

  it('round-trips through the query string it builds', () => {
    const query = auditFiltersQuery(
      { operator: 'a@b.example', action: 'sign-in', to: '2026-11-21T10:00' },
      2,
    );
    expect(query).toBe('operator=a%40b.example&action=sign-in&to=2026-11-21T10%3A00&page=2');
    const parsed = parseAuditFilters(new URLSearchParams(query));
    expect(parsed.success && parsed.filters.page).toBe(2);
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
