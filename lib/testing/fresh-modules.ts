/**
 * Vitest setup file of the `unit` project (vitest.config.ts): each test file runs on the project's own
 * modules fresh, in a worker that outlives it. Before the file, Vitest's module registry is reset, so
 * modules that read process.env once (the console's configuration, consoleServer()) read this file's.
 * After it, process.env and globalThis are put back as they were, so what one file set (an API key,
 * the metrics registry kept on a global symbol) is not there for the next. node_modules stay loaded:
 * that is the time it saves.
 */
import { afterAll, vi } from 'vitest';

const environment = { ...process.env };
const globals = new Set<PropertyKey>(Reflect.ownKeys(globalThis));
vi.resetModules();

afterAll(() => {
  for (const name of Object.keys(process.env)) if (!(name in environment)) delete process.env[name];
  Object.assign(process.env, environment);
  for (const key of Reflect.ownKeys(globalThis))
    if (!globals.has(key)) Reflect.deleteProperty(globalThis, key);
});
