import 'server-only';
import type { z } from 'zod';
import type { UserGroupOperation } from '@/lib/console-api/contract';
import type { Permission } from '@/lib/roles';
import type { UserGroupApi } from '@/lib/user-group-api/client';
import { fromUpstreamError } from './errors';
import { type ActionAudit, consoleRoute } from './route';

const permissionOf: Record<UserGroupOperation, Permission> = {
  'get-or-create': 'user-groups:get-or-create',
  rotate: 'user-groups:rotate',
  delete: 'user-groups:delete',
};

/**
 * One call of the User Group Service as a console route: the operation's permission, the form's
 * schema, an audit entry written before the call, and upstream failures turned into errors a
 * person can act on.
 */
export function userGroupRoute<Body, Result>(
  operation: UserGroupOperation,
  body: z.ZodType<Body>,
  call: (api: UserGroupApi, body: Body, requestId: string) => Promise<Result>,
  facts: Omit<ActionAudit<Body, Result>, 'action'>,
) {
  return consoleRoute<Body, Result>(
    { name: operation, permission: permissionOf[operation], body, audit: { action: operation, ...facts } },
    async ({ body, requestId, server }) => {
      try {
        return await call(server.userGroupApi(), body, requestId);
      } catch (error) {
        throw fromUpstreamError(error, operation, requestId);
      }
    },
  );
}
