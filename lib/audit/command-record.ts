/**
 * A change made by a command line tool (not a request), on record the way every change is: its
 * entry written `started` first (nothing runs when it cannot be), then settled with the outcome.
 * For processes without the console's server (the audit CLI); requests go through the route frame.
 */
import type { Clock } from '@/lib/clock';
import type { ConsoleDb } from '@/lib/db/console-database';
import { type AuditEntry, type AuditSettlement, recordAuditEvent, settleAuditEvent } from './store';

export async function onRecordFromCommand<T>(
  db: ConsoleDb,
  clock: Pick<Clock, 'now'>,
  entry: Omit<AuditEntry, 'outcome' | 'at'>,
  run: () => Promise<T>,
  settled: (result: T) => AuditSettlement,
): Promise<T> {
  const id = await recordAuditEvent(db, { ...entry, outcome: 'started', at: new Date(clock.now()) }, clock);
  let result: T;
  try {
    result = await run();
  } catch (error) {
    await settleAuditEvent(db, id, { outcome: 'internal' }, clock);
    throw error;
  }
  await settleAuditEvent(db, id, settled(result), clock);
  return result;
}
