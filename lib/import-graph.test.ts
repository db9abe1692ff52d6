import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Imports between the folders of lib/ go one way. A module is named by its folder under lib/
 * (`lib/auth/options.ts` → `auth`), or by its file for modules at lib/'s top (`limits`). Tests
 * and test support (lib/testing, a feature's test-support.ts) may import anything and are left out; type-only imports count,
 * since they tie the folders' meanings together just the same.
 */
const libDir = path.resolve('lib');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'testing' ? [] : sourceFiles(full);
    // A feature's test-support.ts is test support too: it may reach into other features.
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$|^test-support\.ts$/.test(entry.name) ? [full] : [];
  });
}

/** Source files (tests and lib/testing left out) under a folder, .tsx too. */
function appFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'testing' ? [] : appFiles(full);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [full] : [];
  });
}

function unitOf(file: string): string {
  const [first = ''] = path.relative(libDir, file).split(path.sep);
  return first.replace(/\.tsx?$/, '');
}

function importedFiles(file: string, { valuesOnly = false } = {}): string[] {
  const source = readFileSync(file, 'utf8');
  const specifiers = [...source.matchAll(/(?:^|\n)\s*((?:import|export)\b[^'"]*?)from\s+['"]([^'"]+)['"]/g)]
    // `import type { … }` ties meanings, not module initialisation: left out of the value graph.
    .filter((match) => !valuesOnly || !/^(?:import|export)\s+type\b/.test(match[1] ?? ''))
    .map((match) => match[2] ?? '');
  return specifiers.flatMap((specifier) => {
    if (specifier.startsWith('@/lib/')) return [path.join(libDir, specifier.slice('@/lib/'.length))];
    if (specifier.startsWith('.')) return [path.resolve(path.dirname(file), specifier)];
    return [];
  });
}

/** unit → the units it imports. */
function unitGraph(): Map<string, Set<string>> {
  const graph = new Map<string, Set<string>>();
  for (const file of sourceFiles(libDir)) {
    const from = unitOf(file);
    const edges = graph.get(from) ?? new Set<string>();
    graph.set(from, edges);
    for (const target of importedFiles(file)) {
      if (!target.startsWith(libDir)) continue;
      const to = unitOf(target);
      if (to !== from) edges.add(to);
    }
  }
  return graph;
}

function findCycle(graph: Map<string, Set<string>>): string[] | null {
  const state = new Map<string, 'visiting' | 'done'>();
  const stack: string[] = [];
  const visit = (unit: string): string[] | null => {
    if (state.get(unit) === 'done') return null;
    if (state.get(unit) === 'visiting') return [...stack.slice(stack.indexOf(unit)), unit];
    state.set(unit, 'visiting');
    stack.push(unit);
    for (const next of graph.get(unit) ?? []) {
      const cycle = visit(next);
      if (cycle) return cycle;
    }
    stack.pop();
    state.set(unit, 'done');
    return null;
  };
  for (const unit of graph.keys()) {
    const cycle = visit(unit);
    if (cycle) return cycle;
  }
  return null;
}

/**
 * The feature folders: each holds a feature's wire contract, store and server actions. Another
 * folder reaches into one only through its public modules: `contract.ts` (what crosses the wire),
 * `schema.ts` (its tables), `store.ts` (its data), `server.ts` (its actions, handed the server),
 * `routes.ts` (its console routes' definitions, which lib/console-api/routes.ts gathers), `handlers.ts`
 * (what the server adds to them: audit, approval, the call; app/api's route files name them), and the few
 * more it names here. The composition root (lib/server, lib/launcher) wires any of it.
 */
const features: Record<string, string[]> = {
  // The approval frame and body reader: what the route frame's approval stage calls; the policy the config checks;
  // sponsors: who brought whom in, written by the operators' and invitations' handlers before a grant.
  approvals: ['waiting-route', 'frame', 'body', 'policy', 'sponsors'],
  // Sign-in and its proxy: the options the composition root builds better-auth from, the limiter and
  // the origin and return-path checks the frame's guards use, the first admin's bootstrap.
  auth: ['options', 'sign-in-limiter', 'origin', 'return-path', 'bootstrap', 'route'],
  audit: ['actions', 'audit-log', 'csv', 'fingerprint', 'filters', 'command-record'],
  'audit-chain': [],
  // delivery: the stream-off command switches the stream off for good.
  'audit-stream': ['outbox', 'delivery'],
  // matching-ids: the ids a part matches, for a rotation of every match and the audit log's group filter.
  directory: ['search', 'matching-ids'],
  invitations: [],
  jobs: ['steering', 'files', 'csv', 'token-list'],
  // grants: which change gives power, asked by the operators page and the invitations' handlers alike.
  operators: ['grants'],
  passkeys: ['browser-ceremony'],
  // SCIM's frame and handlers, which its route files under app/api/scim/v2 adapt.
  scim: ['route', 'user-handlers', 'group-handlers'],
  sessions: [],
  tokens: ['identify', 'look-up-limits'],
  'two-factor': ['step-up', 'proofs', 'used-codes'],
  'upstream-status': [],
  // The built-in User Group Service: the console reads the request-body limits it shares.
  'user-group-service': ['request-body'],
  'user-groups': ['route', 'show-token'],
};
const publicNames = ['contract', 'schema', 'store', 'server', 'routes', 'handlers'];
const compositionRoot = ['server', 'launcher'];

/** Files and the files they import by value, across lib/. */
function valueGraph({ typesToo = false } = {}): Map<string, Set<string>> {
  const graph = new Map<string, Set<string>>();
  for (const file of sourceFiles(libDir)) {
    const edges = new Set<string>();
    for (const target of importedFiles(file, { valuesOnly: !typesToo })) {
      const resolved = [target, `${target}.ts`, `${target}.tsx`, `${target}/index.ts`].find((candidate) =>
        files.has(candidate),
      );
      if (resolved) edges.add(resolved);
    }
    graph.set(file, edges);
  }
  return graph;
}
const files = new Set(sourceFiles(libDir));

describe("lib/'s import graph", () => {
  it('has no cycle between modules: every module can be initialised before those that import it', () => {
    const graph = valueGraph();
    expect(graph.size).toBeGreaterThan(100);
    expect(findCycle(graph)?.map((file) => path.relative(libDir, file)) ?? null).toBeNull();
  });

  it('has no circle of imports between files, type imports included: each reads one way', () => {
    const graph = valueGraph({ typesToo: true });
    expect(findCycle(graph)?.map((file) => path.relative(libDir, file)) ?? null).toBeNull();
  });

  it('reaches into a feature folder only through its public modules', () => {
    const trespasses: string[] = [];
    for (const file of sourceFiles(libDir)) {
      const from = unitOf(file);
      if (compositionRoot.includes(from)) continue;
      for (const target of importedFiles(file)) {
        const to = unitOf(target);
        const publicModules = features[to];
        if (to === from || !publicModules || !target.startsWith(libDir)) continue;
        const name = path.basename(target).replace(/\.tsx?$/, '');
        if (![...publicNames, ...publicModules].includes(name))
          trespasses.push(`${path.relative(libDir, file)} → ${path.relative(libDir, target)}`);
      }
    }
    expect(trespasses).toEqual([]);
  });

  it('keeps the base below the features and the server', () => {
    const graph = unitGraph();
    const above = ['server', 'launcher', ...Object.keys(features)];
    // config/approvals.ts reads CONSOLE_REQUIRE_APPROVAL against the policy's action names, which
    // lib/approvals/contract.ts holds; the names move into config when lib/approvals is next changed.
    const known = new Set(['config → approvals']);
    const base = ['db', 'config', 'crypto', 'validation', 'user-group-api', 'environments', 'roles'];
    // The shared pieces under the features: leases, metrics, HTTP limits, counters. (console-api holds
    // both the route contract the features build on and the registry of their routes, above them.)
    const shared = ['leases', 'metrics', 'node-http', 'rate-limit'];
    for (const unit of [...base, ...shared]) {
      for (const upper of above)
        if (!known.has(`${unit} → ${upper}`)) expect([...(graph.get(unit) ?? [])], unit).not.toContain(upper);
    }
  });

  it('keeps the browser client apart: only the contract and small shared pieces below it, nothing server-side above it', () => {
    const graph = unitGraph();
    const serverSide = [
      'server',
      'auth',
      'audit',
      'db',
      'jobs',
      'directory',
      'launcher',
      'user-group-service',
    ];
    for (const unit of serverSide) {
      expect([...(graph.get('browser-client') ?? [])], 'browser-client').not.toContain(unit);
      expect([...(graph.get(unit) ?? [])], unit).not.toContain('browser-client');
    }
  });

  it('hands the console server down from the edges: nothing below them fetches it', () => {
    // lib/server/index.ts builds it; the frame, the page helper and the routes that hand it to the
    // frame or have none (sign-in, readiness, the two public invitation routes) import it (and Next's start hook, outside these folders); stores, helpers and pages are
    // handed it (pages through lib/server/page-context.ts).
    const edges = [
      'app/api/auth/[...all]/route.ts',
      'app/api/invitation/accept/route.ts',
      'app/api/invitation/route.ts',
      'app/api/ready/route.ts',
      // The one frame of every API route: the console's, SCIM's and the auth proxy's.
      'lib/server/frame/frame.ts',
      'lib/server/page-context.ts',
    ];
    const fetching = ['app', 'lib', 'components']
      .flatMap((dir) => appFiles(path.resolve(dir)))
      .filter((file) => /import\s*\{[^}]*\bconsoleServer\b[^}]*\}\s*from/.test(readFileSync(file, 'utf8')))
      .map((file) => path.relative(path.resolve('.'), file).split(path.sep).join('/'))
      .sort();
    expect(fetching).toEqual(edges);
  });

  it('writes audit entries only through the frame, the job runner and lib/audit', () => {
    const allowed = [
      // The fail-closed writer itself, and what lib/audit does with it (retention, reads, exports).
      /^lib\/audit\//,
      // The frame's writer: the audited stage's entries, SCIM's and the auth proxy's (OnRecord), sign-ins.
      /^lib\/server\/frame\/writer\.ts$/,
    ];
    // The job runner's one writer (a batch's entries in its own transaction, a job's entry settled
    // as it ends): on the audit store, as the runner runs outside Next too (the bench).
    const remaining = ['lib/jobs/on-record.ts'];
    const writes =
      /\bauditLog\s*\.\s*(?:record|recordMany|settle|audited|exporting|read)\b|\.audited\(|\b(?:recordAuditEvents?|settleAuditEvent)\b/;
    const writers = ['app', 'lib', 'components']
      .flatMap((dir) => appFiles(path.resolve(dir)))
      .map((file) => path.relative(path.resolve('.'), file).split(path.sep).join('/'))
      .filter((file) => !allowed.some((pattern) => pattern.test(file)))
      .filter((file) => writes.test(readFileSync(file, 'utf8')))
      .sort();
    expect(writers).toEqual([...remaining].sort());
  });

  it('finds a cycle when there is one', () => {
    const graph = new Map([
      ['a', new Set(['b'])],
      ['b', new Set(['c'])],
      ['c', new Set(['a'])],
    ]);
    expect(findCycle(graph)).toEqual(['a', 'b', 'c', 'a']);
  });
});
