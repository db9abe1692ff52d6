/**
 * The console under test is started as a deployment starts it (playwright.config.ts): compiled
 * JavaScript run by plain node, after `npm run build`. No TypeScript is compiled at run time: no
 * tsx in the process serving the console nor under it; and the embedded service runs in that same
 * process (lib/launcher/start.ts), not in a child.
 */
import { readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { listeningPid, nodeOptionsOf, processTree } from '../lib/testing/process-tree';
import { consoleLogFile, consolePort } from './support/servers';

test('the running console is compiled code under plain node, in one process, with no tsx', async ({
  request,
}) => {
  expect((await request.get('/api/health')).ok()).toBe(true);
  const pid = listeningPid(consolePort);
  expect(pid, `no process listens on ${consolePort}`).not.toBeNull();
  const tree = processTree(pid ?? 0);
  expect(tree[0]?.command).toMatch(/^\S*node dist\/launcher\/start\.js$/);
  for (const process of tree) {
    expect(process.command, `pid ${process.pid}`).not.toMatch(/tsx/);
    expect(nodeOptionsOf(process.pid), `NODE_OPTIONS of pid ${process.pid}`).not.toMatch(/tsx/);
  }
  // The console and the embedded service: one process, nothing started beside it.
  expect(tree.map(({ pid, command }) => `${pid} ${command}`)).toHaveLength(1);
});

test('the running console builds its server once, though Next loads its modules once per bundle layer', async ({
  request,
}) => {
  // Instrumentation builds it at start; a page and an API route each run their own copy of the
  // server's modules, and must be handed that one (one SQLite writer, one of each background loop).
  expect((await request.get('/sign-in')).ok()).toBe(true);
  expect((await request.get('/api/ready')).ok()).toBe(true);
  const pid = listeningPid(consolePort);
  const started = readFileSync(consoleLogFile, 'utf8')
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as { msg?: string; pid?: number })
    .filter((entry) => entry.msg === 'console server started' && entry.pid === pid);
  expect(started).toHaveLength(1);
});
