/**
 * The built-in User Group Service, framework-free (node:http + Kysely over SQLite or PostgreSQL).
 *
 * - startUserGroupService(options) → Promise<{ url, port, close() }>: see server.ts.
 * - createApiKey({ database, environment, name? }) → Promise<{ id, key, environment, name }>
 */
export { createApiKey } from './api-keys';
export type { RunningUserGroupService } from './server';
export { startUserGroupService } from './server';
