/**
 * The built-in User Group Service, framework-free (node:http + Kysely over SQLite or PostgreSQL).
 *
 * - startUserGroupService(options) → Promise<{ url, port, close() }>: see server.ts.
 * - createApiKey({ database, environment, name? }) → Promise<{ id, key, environment, name }>
 * - listApiKeys({ database }) → Promise<ApiKeyRecord[]>
 * - revokeApiKey({ database, id }) → Promise<boolean>
 */
export type { ApiKeyRecord, CreatedApiKey } from './api-keys';
export { createApiKey, listApiKeys, revokeApiKey } from './api-keys';
export { ENCRYPTION_KEY_ENV } from './encryption-key';
export type { RateLimit } from './rate-limiter';
export { DEFAULT_RATE_LIMIT } from './rate-limiter';
export type { HttpLimits, RunningUserGroupService, UserGroupServiceOptions } from './server';
export { DEFAULT_HTTP_LIMITS, startUserGroupService } from './server';
