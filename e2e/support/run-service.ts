import { readFileSync } from 'node:fs';
import path from 'node:path';
import { realClock } from '@/lib/clock';
import { createUserGroupApi, type UserGroupApi } from '@/lib/user-group-api/client';
import { consoleApiKeyOf } from './fixtures';
import { e2eDataDir } from './servers';

/** The embedded service of the run's console: its URL is in the launcher's log line. */
function serviceUrlOfRun(): string {
  const log = readFileSync(path.join(e2eDataDir, 'console.log'), 'utf8');
  const match = /embedded User Group Service on (http:\/\/127\.0\.0\.1:\d+)/.exec(log);
  if (!match?.[1]) throw new Error('the run console did not print its service URL');
  return match[1];
}

/** The run's service, called directly with an environment's key: what happens behind the console's back. */
export function runServiceApi(environment: 'Customer' | 'Testing'): UserGroupApi {
  return createUserGroupApi({
    baseUrl: serviceUrlOfRun(),
    apiKey: consoleApiKeyOf(environment),
    clock: realClock,
  });
}

/** Whether the service has the group, asked without leaving one behind. */
export async function serviceHasGroup(api: UserGroupApi, userGroupId: string): Promise<boolean> {
  const { new_user_group, user_group } = await api.getOrCreate({ user_group_id: userGroupId });
  if (new_user_group)
    await api.deleteUserGroup({ user_group_id: userGroupId, current_token: user_group.token });
  return !new_user_group;
}
