import 'server-only';
import type { Clock } from '@/lib/clock';
import type { ConsoleDb } from '@/lib/db/console-database';
import { permissionMinimumRole, roles } from '@/lib/roles';
import { type ApprovalAction, type ApprovalRule, approvalPermission } from './contract';
import { expireApprovals } from './store';

/**
 * The policy's actions that fewer than two operators may do: one asks, another approves, so such
 * an action cannot be done at all. Disabled operators count for nothing.
 */
export async function approversShort(db: ConsoleDb, rules: ApprovalRule[]): Promise<ApprovalAction[]> {
  const actions = [...new Set(rules.map((rule) => rule.action))];
  if (actions.length === 0) return [];
  const operators = await db.selectFrom('user').select(['role', 'banned']).execute();
  const able = (action: ApprovalAction) => {
    const least = roles.indexOf(permissionMinimumRole[approvalPermission[action]]);
    return operators.filter(
      (operator) =>
        operator.banned !== true &&
        operator.banned !== 1 &&
        roles.indexOf(operator.role as (typeof roles)[number]) >= least,
    ).length;
  };
  return actions.filter((action) => able(action) < 2);
}

/** What an expired request puts on record (lib/audit's record, failing closed). */
interface ExpiredEntry {
  action: 'approval.expire';
  operator: { id: string; email: string };
  environment: 'Customer' | 'Testing' | null;
  outcome: 'success';
  requestId: string;
  detail: string;
}

interface Expiry {
  db: ConsoleDb;
  record: (entry: ExpiredEntry) => Promise<unknown>;
  log: (message: string, fields: Record<string, unknown>) => void;
  clock: Clock;
  everyMs?: number;
}

/** Ends the requests whose time is up (their secret part erased), each on record; answers how many. */
export async function expireOnce({ db, record, clock }: Expiry): Promise<number> {
  const ended = await expireApprovals(db, new Date(clock.now()));
  for (const row of ended)
    await record({
      action: 'approval.expire',
      operator: { id: row.requested_by, email: row.requested_by_email },
      environment: row.environment as ExpiredEntry['environment'],
      outcome: 'success',
      requestId: row.id,
      detail: `${row.action}: ${row.subject}; nobody decided it in time`,
    });
  return ended.length;
}

/** Sweeps expired requests every minute until stopped. */
export function startApprovalExpiry(expiry: Expiry): { stop(): void } {
  const { clock, everyMs = 60_000 } = expiry;
  const stopped = new AbortController();
  void (async () => {
    while (!stopped.signal.aborted) {
      try {
        await expireOnce(expiry);
      } catch (error) {
        expiry.log('could not expire approval requests', { err: { name: (error as Error)?.name } });
      }
      await clock.sleep(everyMs, stopped.signal);
    }
  })();
  return { stop: () => stopped.abort() };
}
