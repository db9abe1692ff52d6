import { describe, expect, it } from 'vitest';
import { consoleRoutes } from '@/lib/console-api/routes';
import { auditActions } from './actions';

describe("the audit log's actions", () => {
  it("take every action a route's definition declares, each once", () => {
    const declared = Object.values(consoleRoutes).flatMap((route) =>
      'audits' in route ? [...(route.audits ?? [])] : [],
    );
    expect(declared).toEqual(expect.arrayContaining(['get-or-create', 'show-token', 'rotate', 'delete']));
    expect(auditActions).toEqual(expect.arrayContaining(declared));
    expect(new Set(auditActions).size).toBe(auditActions.length);
  });

  it('list the declared first, in the registry’s order, then the others (the filter’s order)', () => {
    expect(auditActions.slice(0, 6)).toEqual([
      'get-or-create',
      'show-token',
      'rotate',
      'delete',
      'sign-in',
      'sign-out',
    ]);
    expect(auditActions).toContain('approval.expire');
  });
});
