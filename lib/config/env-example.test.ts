import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { configVariables } from './index';

const root = path.resolve(__dirname, '../..');
const exampleNames = new Set(
  [...readFileSync(path.join(root, '.env.example'), 'utf8').matchAll(/^#? ?([A-Z][A-Z0-9_]*)=/gm)].map(
    (match) => match[1],
  ),
);

/** Names read straight from an environment object in lib/config's code (`env.X`, `process.env.X`). */
function namesReadInSource(): string[] {
  const dir = path.join(root, 'lib/config');
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.ts') && !file.endsWith('.test.ts'))
    .flatMap((file) => [...readFileSync(path.join(dir, file), 'utf8').matchAll(/\benv\.([A-Z][A-Z0-9_]*)/g)])
    .map((match) => match[1] as string);
}

describe('.env.example', () => {
  it('lists every variable the configuration reads', () => {
    expect(configVariables.length).toBeGreaterThan(30);
    const missing = [...configVariables, ...namesReadInSource()].filter((name) => !exampleNames.has(name));
    expect(missing).toEqual([]);
  });
});
