import 'server-only';
import { type Action, actorOf } from './action';

/**
 * The load stage: what the route acts on (an operator, a job), read as the actor (an approved
 * action's requester), handed the environment the URL names; the subject may name the environment
 * and the id its entries are filed under (a job's).
 */
export async function loadStage<Path extends string, Body, Result, Subject>(
  action: Action<Path, Body, Result, Subject>,
): Promise<void> {
  const { spec, server, body, params } = action;
  if (!spec.load) return;
  action.subject = await spec.load({
    server,
    operator: actorOf(action),
    body,
    params,
    environment: action.environment,
  });
  action.environment = spec.environmentOf?.(action.subject) ?? action.environment;
  action.filedUnder = spec.audit?.filedUnder?.(action.subject) ?? null;
}

/** The refusal a definition knows once the subject is read (a directory-managed operator). */
export function checkStage<Path extends string, Body, Result, Subject>(
  action: Action<Path, Body, Result, Subject>,
): void {
  if (action.spec.load) action.spec.check?.(action.body, action.subject);
}
