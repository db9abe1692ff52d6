import 'server-only';
import { createUserGroupApi, type UserGroupApi } from '@/lib/user-group-api/client';
import { consoleConfig } from './config';

let api: UserGroupApi | undefined;

/** The one upstream client of this process: it alone holds the API key. */
export function userGroupApi(): UserGroupApi {
  if (!api) {
    const { baseUrl, apiKey, timeoutMs } = consoleConfig().upstream;
    api = createUserGroupApi({ baseUrl, apiKey, timeoutMs });
  }
  return api;
}

export function upstreamEndpoint(): string {
  return new URL('/api/user', consoleConfig().upstream.baseUrl).toString();
}
