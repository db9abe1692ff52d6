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
    const declared = Object.values(consoleRoutes).flatMap((route) =>
      'audits' in route ? [...(route.audits ?? [])] : [],
    );
    expect(auditActions.slice(0, new Set(declared).size)).toEqual([...new Set(declared)]);
    const userGroups = auditActions.filter((action) =>
      ['get-or-create', 'show-token', 'rotate', 'delete'].includes(action),
    );
    expect(userGroups).toEqual(['get-or-create', 'show-token', 'rotate', 'delete']);
    expect(auditActions.at(-1)).toBe('approval.expire');
  });
});
