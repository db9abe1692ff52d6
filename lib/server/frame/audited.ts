import 'server-only';
import { approvalNote } from '@/lib/approvals/frame';
import type { AuditAction } from '@/lib/audit/actions';
import type { AuditEntry } from '@/lib/audit/store';
import { ConsoleError } from '@/lib/console-error';
import type { Operator } from '../index';
import { type Action, type AuditFacts, actorOf } from './action';
import { writeAudited, writeRefusal } from './writer';

export { onRecord } from './writer';

/** What the request says for the entry; nothing where the body was to be read and was not. */
export function requestFacts<Path extends string, Body, Result, Subject>(
  action: Action<Path, Body, Result, Subject>,
): AuditFacts {
  const { spec, body, subject } = action;
  return body === undefined && spec.body ? {} : (spec.audit?.request?.(body, subject) ?? {});
}

/** The entry of an audited action, by whom and with what outcome. */
export function entryOf<Path extends string, Body, Result, Subject>(
  action: Action<Path, Body, Result, Subject>,
  operator: Operator,
  outcome: string,
  facts: AuditFacts,
): AuditEntry {
  const { spec, body, subject, filedUnder, requestId } = action;
  const audit = spec.audit;
  return {
    action:
      typeof audit?.action === 'function' ? audit.action(body, subject) : (audit?.action as AuditAction),
    environment: action.environment,
    operator: { id: operator.id, email: operator.email },
    outcome,
    requestId: filedUnder ?? requestId,
    ...facts,
    ...(filedUnder ? { detail: naming(facts.detail, requestId) } : {}),
  };
}

/**
 * A refusal of an audited action on record with its code (and what the request said, when it says
 * anything readable). Before the subject is read, only a route without one knows what to record.
 */
export async function recordRefusal<Path extends string, Body, Result, Subject>(
  action: Action<Path, Body, Result, Subject>,
  operator: Operator | null,
  error: unknown,
): Promise<void> {
  const { spec } = action;
  if (!spec.audit || !operator || !(error instanceof ConsoleError)) return;
  if (spec.load && action.subject === undefined) return;
  const code = spec.audit.refusal?.(error.code) ?? error.code;
  await writeRefusal(
    action.server.auditLog,
    entryOf(
      action,
      operator,
      code,
      safely(() => requestFacts(action)),
    ),
  );
}

/**
 * The audited stage: the entry written `started` before `run` (nothing runs when it cannot be:
 * 503), settled with the answer's outcome, or the refusal's code, after. An approved action's
 * entry names its approver; one filed under another id names the request.
 */
export async function auditedStage<Path extends string, Body, Result, Subject>(
  action: Action<Path, Body, Result, Subject>,
  noted: AuditFacts,
  run: (entryId: number) => Promise<Result | Response>,
): Promise<Result | Response> {
  const { spec, body, subject, filedUnder, requestId, approved } = action;
  const audit = spec.audit;
  if (!audit) throw new Error(`${spec.name}: the audited stage of a route without audit`);
  const asked = requestFacts(action);
  const facts = approved ? { ...asked, detail: approvalNote(approved, asked.detail) } : asked;
  // What the settlement adds; a detail filed under another id names the request again.
  const settling = (added: AuditFacts): AuditFacts =>
    filedUnder && added.detail !== undefined ? { ...added, detail: naming(added.detail, requestId) } : added;
  return writeAudited(action.server.auditLog, entryOf(action, actorOf(action), 'started', facts), run, {
    refused: (code) => ({ outcome: audit.refusal?.(code) ?? code, ...settling(noted) }),
    settled: (answer) => {
      if (answer instanceof Response) return { outcome: 'success', ...settling({ ...facts, ...noted }) };
      const outcome = audit.outcome ? audit.outcome(answer, body) : 'success';
      if (outcome === null) return null;
      const added = audit.result?.(body, answer, subject) ?? {};
      return { outcome, ...settling({ ...facts, ...added, ...noted }) };
    },
  });
}

/** A detail filed under another id than its request's names the request. */
function naming(detail: string | null | undefined, requestId: string): string {
  return detail ? `${detail}; request ${requestId}` : `request ${requestId}`;
}

/** What a refusal's entry says, when the request says anything readable. */
function safely(facts: () => AuditFacts): AuditFacts {
  try {
    return facts();
  } catch {
    return {};
  }
}
