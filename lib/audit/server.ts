import 'server-only';
import { consoleServer } from '@/lib/auth/server';
import { logger } from '@/lib/console/logger';
import { type AuditEntry, recordAuditEvent } from './store';

/**
 * Writes one audit entry on the console database. The action it describes has already happened
 * (a token was issued): a failed write is logged, without the entry's content, and not thrown.
 */
export async function audit(entry: AuditEntry): Promise<void> {
  try {
    const { database } = await consoleServer();
    await recordAuditEvent(database.db, entry);
  } catch (error) {
    logger.error(
      { action: entry.action, requestId: entry.requestId, err: { name: (error as Error)?.name } },
      'could not write the audit log',
    );
  }
}
