import 'server-only';
import type { RouteApproval } from '@/lib/approvals/frame';
import type { Clock } from '@/lib/clock';
import type { ConsoleRouteDefinition } from '@/lib/console-api/routes';
import type { ConsoleDb } from '@/lib/db/console-database';
import type { Environment } from '@/lib/environments';
import type { Permission } from '@/lib/roles';
import { fromUpstreamError } from '@/lib/server/errors';
import { type ActionAudit, consoleRoute } from '@/lib/server/route';
import type { UserGroupApi } from '@/lib/user-group-api/client';
import type { UserGroupOperation } from '@/lib/user-groups/contract';
import { updateDirectory } from './directory-update';

interface DirectoryChange<Body, Result> {
  db: ConsoleDb;
  /** The server's clock, which stamps the change (never the process's own). */
  clock: Clock;
  environment: Environment;
  operatorEmail: string;
  body: Body;
  result: Result;
}

type UserGroupPath = `/api/user-groups/[environment]/${UserGroupOperation}`;

export interface UserGroupCall<Body, Result> {
  operation: UserGroupOperation;
  /** Its definition: path, permission, body and answer. */
  route: ConsoleRouteDefinition<UserGroupPath, Body, Result, Permission>;
  call: (api: UserGroupApi, body: Body, requestId: string) => Promise<Result>;
  audit: Omit<ActionAudit<Body, Result>, 'action'>;
  /** What the directory learns from a success. */
  directory: (change: DirectoryChange<Body, Result>) => Promise<void>;
  /** Where CONSOLE_REQUIRE_APPROVAL may make the call wait for a second operator (a delete). */
  approval?: RouteApproval<Body, undefined>;
}

/**
 * One call of the User Group Service as a console route, in the environment its URL names: the
 * operation's permission, the form's schema, an audit entry written before the call, the
 * directory updated after it, and upstream failures turned into errors a person can act on.
 */
export function userGroupRoute<Body, Result>(spec: UserGroupCall<Body, Result>) {
  return consoleRoute(
    { ...spec.route, audit: { ...spec.audit, action: spec.operation }, approval: spec.approval },
    async ({ body, requestId, server, operator, environment }) => {
      let result: Result;
      try {
        result = await spec.call(server.userGroupApi(environment), body, requestId);
      } catch (error) {
        throw fromUpstreamError(error, spec.operation, environment, requestId);
      }
      const directory = {
        db: server.database.db,
        clock: server.clock,
        environment,
        operatorEmail: operator.email,
        body,
        result,
      };
      await updateDirectory(server, requestId, spec.directory(directory));
      return result;
    },
  );
}
