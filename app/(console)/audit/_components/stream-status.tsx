import { streamStatusLine } from '@/lib/audit-stream/status';
import type { ConsoleDb } from '@/lib/db/console-database';

/** For admins, with AUDIT_STREAM_URL set: how far behind the stream is, and what the endpoint answers. */
export async function AuditStreamStatus({ db }: { db: ConsoleDb }) {
  const line = await streamStatusLine(db, Date.now());
  return (
    <p className="text-sm text-muted-foreground" data-testid="audit-stream-status">
      {line}
    </p>
  );
}
