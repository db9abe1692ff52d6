import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { createTailwindMerge, extendTailwindMerge, getDefaultConfig, twMerge } from 'tailwind-merge';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { cn } from './cn';

/**
 * `cn` merges with tailwind-merge's own algorithm but a class map of only the classes the console's
 * source writes (components/ui/cn-groups.json, 8.3 → about 3 kB gzip on every page). These tests hold it
 * to the full default configuration's answers: the map is what the source needs (`npx vitest run
 * components/ui/cn.test.ts -u` writes it again after a class is added), and every pair of the source's
 * classes merges as twMerge merges it. Merging only ever compares two classes' groups, so equal
 * answers for every pair are equal answers for every list.
 */

const ROOTS = ['app', 'components'];
const SOURCE = /\.tsx?$/;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(file);
    const source = SOURCE.test(entry.name) && !/\.test\.tsx?$/.test(entry.name);
    // The class map names groups, not classes.
    return source && file !== path.join('components', 'ui', 'cn-groups.json') ? [file] : [];
  });
}

/**
 * The source's string literals and templates, as TypeScript's parser reads them: comments and JSX
 * text (where an apostrophe would pair the wrong quotes for a pattern) are not literals.
 */
function literalsOf(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const literals: string[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) literals.push(node.text);
    // A template's text, a mark where each substitution was (the words it touches are dropped
    // below); the literals inside its substitutions are read on their own.
    if (ts.isTemplateExpression(node))
      literals.push(node.head.text + node.templateSpans.map((span) => `\${}${span.literal.text}`).join(''));
    ts.forEachChild(node, visit);
  };
  visit(source);
  return literals;
}

/** Every word of every string literal of the source that could be a class, variants and all. */
function sourceTokens(): string[] {
  const tokens = new Set<string>();
  for (const literal of ROOTS.flatMap(sourceFiles).flatMap(literalsOf)) {
    for (const word of literal.split(/\s+/)) {
      if (/^[!-]?[a-z][\w\-[\]:/.%()#&>*@=,'"!]*$/i.test(word) && !word.includes('${')) tokens.add(word);
    }
  }
  return [...tokens].sort();
}

const defaults = getDefaultConfig();
const groupIds = Object.keys(defaults.classGroups) as (keyof typeof defaults.classGroups)[];
const singleGroup = new Map(
  groupIds.map((id) => [
    id,
    createTailwindMerge(() => ({
      ...defaults,
      classGroups: { [id]: defaults.classGroups[id] } as typeof defaults.classGroups,
      conflictingClassGroups: {},
      conflictingClassGroupModifiers: {},
    })),
  ]),
);

/** The class without its variants and important mark, as tailwind-merge reads it. */
function baseClass(token: string): string {
  let depth = 0;
  let start = 0;
  for (let index = 0; index < token.length; index += 1) {
    const char = token[index];
    if (char === '[' || char === '(') depth += 1;
    else if (char === ']' || char === ')') depth -= 1;
    else if (char === ':' && depth === 0) start = index + 1;
  }
  return token.slice(start).replace(/^!|!$/g, '');
}

const PROBE = 'cn-probe';
const probes = new Map<string, (classes: string) => string>();
/** The default configuration with one more class, PROBE, in the group `id`. */
function probe(id: string) {
  let merge = probes.get(id);
  if (!merge) {
    merge = extendTailwindMerge({ extend: { classGroups: { [id]: [PROBE] } } });
    probes.set(id, merge);
  }
  return merge;
}

/**
 * Which default group a class is in: of the groups that have it alone, the one whose PROBE and the
 * class replace each other in the whole default configuration (a group with a more specific match
 * takes the class there, as `ring-offset-2` is ring-offset-w's, not ring-color's).
 */
function groupOf(base: string): string | undefined {
  const alone = groupIds.filter((id) => singleGroup.get(id)?.(`${base} ${base}`) === base);
  const found = alone.filter(
    (id) => probe(id)(`${base} ${PROBE}`) === PROBE && probe(id)(`${PROBE} ${base}`) === base,
  );
  return found[0];
}

/** The reduced map: each group the source uses, with the classes of the source that are in it. */
function reducedGroups(tokens: string[]) {
  const groups = new Map<string, Set<string>>();
  for (const token of tokens) {
    const base = baseClass(token).replace(/^-/, '');
    if (base === '') continue;
    const slash = base.lastIndexOf('/');
    // As tailwind-merge looks it up: without a `/modifier` first, then whole.
    const candidates = slash > 0 && !base.endsWith(']') ? [base.slice(0, slash), base] : [base];
    for (const candidate of candidates) {
      const group = groupOf(candidate);
      if (!group) continue;
      if (!groups.has(group)) groups.set(group, new Set());
      groups.get(group)?.add(candidate);
      break;
    }
  }
  const used = new Set(groups.keys());
  const conflicts = Object.fromEntries(
    Object.entries(defaults.conflictingClassGroups)
      .filter(([id]) => used.has(id))
      .map(([id, others]) => [id, (others ?? []).filter((other) => used.has(other))] as const)
      .filter(([, others]) => others.length > 0),
  );
  const modifierConflicts = Object.fromEntries(
    Object.entries(defaults.conflictingClassGroupModifiers)
      .filter(([id]) => used.has(id))
      .map(([id, others]) => [id, (others ?? []).filter((other) => used.has(other))] as const)
      .filter(([, others]) => others.length > 0),
  );
  return {
    classGroups: Object.fromEntries(
      groupIds.filter((id) => groups.has(id)).map((id) => [id, [...(groups.get(id) ?? [])].sort()]),
    ),
    conflictingClassGroups: conflicts,
    conflictingClassGroupModifiers: modifierConflicts,
    postfixLookupClassGroups: defaults.postfixLookupClassGroups.filter((id) => used.has(id)),
    orderSensitiveModifiers: defaults.orderSensitiveModifiers,
  };
}

/**
 * The class map as cn-groups.json holds it: data, not source (what writes it and why is said in
 * cn.ts, and the file-size rule for source does not apply to it).
 */
function render(groups: ReturnType<typeof reducedGroups>): string {
  return `${JSON.stringify({ cacheSize: 500, theme: {}, ...groups }, null, 2)}\n`;
}

describe('cn', () => {
  const tokens = sourceTokens();

  it('has a class map of exactly the classes the source writes', async () => {
    await expect(render(reducedGroups(tokens))).toMatchFileSnapshot('./cn-groups.json');
  });

  it('merges every pair of the source classes as twMerge does', () => {
    const classes = tokens.filter((token) => twMerge(`${token} ${token}`) === token);
    expect(classes.length).toBeGreaterThan(100);
    const differences: string[] = [];
    for (const first of classes) {
      for (const second of classes) {
        const list = `${first} ${second}`;
        if (cn(list) !== twMerge(list)) differences.push(`${list}: ${cn(list)} ≠ ${twMerge(list)}`);
      }
    }
    expect(differences.slice(0, 20)).toEqual([]);
  });

  it('joins as clsx does and leaves other words alone', () => {
    expect(cn('px-2 h-8', false, { 'h-7': true, hidden: false }, 'my-class')).toBe('px-2 h-7 my-class');
    expect(cn('text-sm text-muted-foreground', 'text-destructive')).toBe('text-sm text-destructive');
  });
});
