import 'server-only';
import { ConsoleError } from '@/lib/console-error';
import { findDirectoryEntry, recordDeletion, recordGetOrCreate } from '@/lib/directory/store';
import { type Environment, environmentLooks } from '@/lib/environments';
import type { ConsoleServer, Operator } from '@/lib/server';
import { fromUpstreamError } from '@/lib/server/errors';
import { writeAudited } from '@/lib/server/frame/writer';
import type { ActionAudit } from '@/lib/server/route';
import type { GetOrCreateResponse } from '@/lib/user-group-api/contract';
import type { ShowTokenRequest, ShowTokenResult } from '@/lib/user-groups/contract';
import { updateDirectory } from './directory-update';

/** What the show-token entry says when the look found the group gone. */
const GONE_DETAIL =
  'The service no longer had this group: the one this look created was deleted again at once.';

/**
 * The show-token entry: written before the look, settled `success` with the token's fingerprint,
 * or `gone` when the service no longer had the group.
 */
export const showTokenAudit: ActionAudit<ShowTokenRequest, ShowTokenResult> = {
  action: 'show-token',
  request: (body) => ({ userGroupId: body.user_group_id }),
  result: (_body, result) =>
    result.gone
      ? { detail: GONE_DETAIL }
      : { userGroupName: result.user_group.name, token: result.user_group.token },
  outcome: (result) => (result.gone ? 'gone' : 'success'),
};

export interface TokenLook {
  server: ConsoleServer;
  environment: Environment;
  operator: Operator;
  requestId: string;
  userGroupId: string;
}

/**
 * Shows a group's current token without ever creating the group. The interface has no read call:
 * the look is a get-or-create of the id alone, and when that made a new group (the service no
 * longer had it, or never had it) the new group is deleted again at once with the token just
 * received, on record first, and the answer is `gone`, without a token. The directory learns what
 * the service said: a group found is live; a group the console believed live is marked deleted.
 */
export async function showToken(look: TokenLook): Promise<ShowTokenResult> {
  const { server, environment, operator, requestId, userGroupId } = look;
  const { db } = server.database;
  const api = server.userGroupApi(environment);
  const known = await findDirectoryEntry(db, environment, userGroupId);

  let answer: GetOrCreateResponse;
  try {
    answer = await api.getOrCreate({ user_group_id: userGroupId }, requestId);
  } catch (error) {
    throw fromUpstreamError(error, 'get-or-create', environment, requestId);
  }
  const { user_group: userGroup } = answer;
  const seen = (isNew: boolean) =>
    recordGetOrCreate(
      db,
      { environment, operatorEmail: operator.email, isNew, group: userGroup, mappingSent: undefined },
      server.clock,
    );

  if (!answer.new_user_group) {
    await updateDirectory(server, requestId, seen(false));
    return { gone: false, user_group: userGroup };
  }

  const believedLive = known !== null && known.deletedAt === null;
  try {
    await writeAudited(
      server.auditLog,
      {
        action: 'delete',
        environment,
        operator: { id: operator.id, email: operator.email },
        requestId,
        userGroupId,
        previousToken: userGroup.token,
        detail: believedLive
          ? 'Undid an accidental re-creation: the group had been deleted outside this console, and Show token created it again.'
          : 'Undid an accidental creation: Show token created a group the service did not have.',
      },
      async () => {
        try {
          await api.deleteUserGroup(
            { user_group_id: userGroupId, current_token: userGroup.token },
            requestId,
          );
        } catch (error) {
          throw fromUpstreamError(error, 'delete', environment, requestId);
        }
      },
      {},
    );
  } catch (error) {
    // The group the look created is still there: the directory says so, and so does the answer.
    await updateDirectory(server, requestId, seen(true));
    throw notUndone(error, userGroupId, environment, requestId);
  }
  if (believedLive) {
    await updateDirectory(
      server,
      requestId,
      recordDeletion(db, { environment, operatorEmail: operator.email, userGroupId }, server.clock),
    );
  }
  return { gone: true };
}

/** The look created the group and it could not be deleted again: say so, with the cause's words. */
function notUndone(error: unknown, userGroupId: string, environment: Environment, requestId: string) {
  const cause = error instanceof ConsoleError ? error : null;
  const code = cause?.code ?? 'internal';
  const reason = !cause
    ? 'something went wrong in the console.'
    : code === 'audit_unavailable'
      ? 'its audit log could not be written.'
      : cause.message;
  const look = environmentLooks[environment];
  return new ConsoleError(
    code,
    `The user group ${userGroupId} no longer existed in ${look.label} (${look.kind}), and looking at its token created it again. The console could not delete it again: ${reason} It exists now with a new token: delete it from its page if it should not.`,
    {
      requestId,
      ...(cause?.extra.retryAfterSeconds ? { retryAfterSeconds: cause.extra.retryAfterSeconds } : {}),
    },
  );
}
