import { consoleRoutes } from '@/lib/console-api/routes';
import { ConsoleError } from '@/lib/console-error';
import { directoryMatchingIds } from '@/lib/directory/store';
import type { Environment } from '@/lib/environments';
import { createRotateJob } from '@/lib/jobs/store';
import { MAX_ROTATIONS, readTokenList, readUserGroupIds } from '@/lib/jobs/token-list';
import type { ConsoleServer } from '@/lib/server';
import { loadJob, toJobView } from '@/lib/server/jobs';
import { spendLookUps } from '@/lib/server/look-up-limits';
import { consoleRoute } from '@/lib/server/route';
import { routeEnvironment } from '@/lib/server/route-params';

/**
 * Tokens pasted or uploaded (or groups chosen in the directory: ticked, or every match of a search)
 * checked into a draft rotation job.
 * The tokens are sealed at once; nothing is sent until the person starts the job.
 */
export const POST = consoleRoute(
  consoleRoutes.createRotateJob,
  async ({ body, params, operator, requestId, server }) => {
    const environment = routeEnvironment(params.environment);
    const reading =
      'tokens' in body
        ? readTokenList(body.tokens)
        : 'search' in body
          ? await readSearch(server, environment, body.search)
          : readUserGroupIds(body.userGroupIds);
    if (!reading.ok)
      throw new ConsoleError('invalid_request', reading.message, { fields: { tokens: reading.message } });
    // Each pasted token is a look-up (the draft names its group): counted, so that drafts are no way
    // around Identify's limit for a script.
    if ('tokens' in body)
      await spendLookUps(
        server.draftLookUpLimit,
        operator.id,
        Math.max(1, reading.rows.length),
        'Too many pasted tokens looked up in an hour',
      );
    const id = await createRotateJob(
      server.database.db,
      server.jobs.vault,
      {
        environment,
        source: body.source,
        owner: { id: operator.id, email: operator.email },
        rows: reading.rows,
        invalid: reading.invalid,
      },
      // Reading a pasted token's group is a token look-up like Identify's: on record, by fingerprint,
      // under the job's id (its entries fold into the job's line on the audit page).
      (jobId, lookUps) =>
        server.auditLog.recordMany(
          lookUps.map(({ token, userGroupId }) => ({
            action: 'token.identify',
            operator: { id: operator.id, email: operator.email },
            outcome: 'success',
            requestId: jobId,
            environment,
            userGroupId,
            token,
            detail: `pasted into a draft rotation job${userGroupId ? '' : ': unknown to the console'}; request ${requestId}`,
          })),
        ),
    );
    return toJobView(await loadJob(server, id));
  },
);

/** Every group the directory search matches, as if each had been ticked (one more tells "too many"). */
async function readSearch(server: ConsoleServer, environment: Environment, search: string) {
  const ids = await directoryMatchingIds(server.database, environment, search, MAX_ROTATIONS + 1);
  if (ids.length === 0)
    return { ok: false as const, message: `No group in the directory matches “${search}” any more.` };
  return readUserGroupIds(ids);
}
