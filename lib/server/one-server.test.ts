import { afterAll, describe, expect, it, vi } from 'vitest';
import { createTestDatabaseLocation } from '@/lib/testing/console-test-database';

const consoleDatabase = await createTestDatabaseLocation('one-server');
Object.assign(process.env, {
  ...consoleDatabase.env,
  PORT: '3998',
  CONSOLE_URL: 'http://127.0.0.1:3998',
  LOG_LEVEL: 'silent',
});

afterAll(async () => {
  const { consoleServer } = await import('@/lib/server');
  await (await consoleServer()).database.close();
  await consoleDatabase.dispose();
});

describe('the console server', () => {
  it('is one per process, whichever copy of its module asks (Next loads one per bundle layer)', async () => {
    const routes = await import('@/lib/server');
    // A second copy of the module, as the pages' bundle layer has.
    vi.resetModules();
    const pages = await import('@/lib/server');
    expect(pages).not.toBe(routes);
    const fromPages = await pages.consoleServer();
    expect(fromPages).toBe(await routes.consoleServer());
    // One database, one read gate: a sign-in on the routes' side holds the pages' heavy reads.
    expect(fromPages.readGate).toBe((await routes.consoleServer()).readGate);
  });
});
