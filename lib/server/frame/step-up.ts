import 'server-only';
import type { StepUp } from '@/lib/console-api/routes';
import { ConsoleError } from '@/lib/console-error';
import type { Environment } from '@/lib/environments';
import { operatorHasPassword } from '@/lib/operators/store';
import { requireRecentAuthentication, type StepUpScope } from '@/lib/two-factor/step-up';
import type { Action } from './action';

/**
 * Where the definition asks for a recent authentication: every environment for `always` (changes
 * of access) and `own-account` (one's own ways in); for `in-production`, the environment of the URL
 * or of what the route acts on. `own-account-password` is `own-account` for an operator without a
 * console password only: one with a password sends it, and better-auth checks it.
 */
export function stepUpScope(
  stepUp: StepUp | null | undefined,
  environment: Environment | null,
): StepUpScope | null {
  if (stepUp === 'always') return 'privileges';
  if (stepUp === 'own-account' || stepUp === 'own-account-password') return 'own-account';
  if (stepUp !== 'in-production') return null;
  // consoleRoute refuses such a definition without an environment; this is the belt to those braces.
  if (!environment) throw new Error('a production step-up without an environment');
  return { environment };
}

/** A definition that asks for a production step-up must say where it is: never silently unguarded. */
export function assertStepUpPlaced(spec: {
  name: string;
  path: string;
  stepUp?: unknown;
  environmentOf?: unknown;
}): void {
  const { stepUp } = spec;
  if (
    stepUp &&
    stepUp !== 'always' &&
    stepUp !== 'own-account' &&
    stepUp !== 'own-account-password' &&
    !spec.path.includes('[environment]') &&
    !spec.environmentOf
  )
    throw new Error(`${spec.name}: a production step-up needs [environment] in the path or environmentOf`);
}

/**
 * The step-up stage. The definition may ask only for some bodies (a job's start and resume, not
 * its pause). An approved action's approver stepped up to approve it; its requester, to ask for it.
 */
export async function stepUpStage<Path extends string, Body, Result, Subject>(
  action: Action<Path, Body, Result, Subject>,
): Promise<void> {
  const { spec, server, operator, body } = action;
  if (action.approved) return;
  const stepUp = typeof spec.stepUp === 'function' ? spec.stepUp(body) : spec.stepUp;
  const scope = stepUpScope(stepUp, action.environment);
  if (!scope) return;
  if (stepUp === 'own-account-password' && (await operatorHasPassword(server.database.db, operator.id))) {
    if ((body as { password?: unknown } | undefined)?.password === undefined)
      throw new ConsoleError('invalid_request', 'Check the input: password must not be empty.', {
        fields: { password: 'must not be empty' },
      });
    return;
  }
  requireRecentAuthentication(operator, scope, server.config, server.clock);
}
