import 'server-only';
import type { z } from 'zod';
import type { UserGroupOperation } from '@/lib/console-api/contract';
import type { ConsoleDb } from '@/lib/db/console-database';
import type { Environment } from '@/lib/environments';
import type { Permission } from '@/lib/roles';
import type { UserGroupApi } from '@/lib/user-group-api/client';
import { fromUpstreamError, routeEnvironment } from './errors';
import { logger } from './logger';
import { type ActionAudit, consoleRoute, handleRequest } from './route';

const permissionOf: Record<UserGroupOperation, Permission> = {
  'get-or-create': 'user-groups:get-or-create',
  rotate: 'user-groups:rotate',
  delete: 'user-groups:delete',
};

export interface DirectoryChange<Body, Result> {
  db: ConsoleDb;
  environment: Environment;
  operatorEmail: string;
  body: Body;
  result: Result;
}

export interface UserGroupCall<Body, Result> {
  operation: UserGroupOperation;
  body: z.core.$ZodType<Body>;
  call: (api: UserGroupApi, body: Body, requestId: string) => Promise<Result>;
  audit: Omit<ActionAudit<Body, Result>, 'action' | 'environment'>;
  /** What the directory learns from a success. */
  directory: (change: DirectoryChange<Body, Result>) => Promise<void>;
}

type EnvironmentParams = { environment: string };

/**
 * One call of the User Group Service as a console route, in the environment its URL names: the
 * operation's permission, the form's schema, an audit entry written before the call, the
 * directory updated after it, and upstream failures turned into errors a person can act on.
 */
export function userGroupRoute<Body, Result>(spec: UserGroupCall<Body, Result>) {
  return async (request: Request, context: { params: Promise<EnvironmentParams> }): Promise<Response> => {
    let environment: Environment;
    try {
      environment = routeEnvironment((await context.params).environment);
    } catch (error) {
      return handleRequest(spec.operation, async () => {
        throw error;
      });
    }
    const route = consoleRoute<Body, Result, EnvironmentParams>(
      {
        name: spec.operation,
        permission: permissionOf[spec.operation],
        body: spec.body,
        audit: { ...spec.audit, action: spec.operation, environment },
      },
      async ({ body, requestId, server, operator }) => {
        let result: Result;
        try {
          result = await spec.call(server.userGroupApi(environment), body, requestId);
        } catch (error) {
          throw fromUpstreamError(error, spec.operation, environment, requestId);
        }
        // The action happened: a directory that missed it is repaired by the next look at the group.
        await spec
          .directory({ db: server.database.db, environment, operatorEmail: operator.email, body, result })
          .catch((error: unknown) =>
            logger.error(
              { requestId, err: { name: (error as Error)?.name } },
              'could not update the directory',
            ),
          );
        return result;
      },
    );
    return route(request, context);
  };
}
