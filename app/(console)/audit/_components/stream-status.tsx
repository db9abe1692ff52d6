import { streamStatusLine } from '@/lib/audit-stream/status';
import type { ConsoleDb } from '@/lib/db/console-database';

/** For admins, with AUDIT_STREAM_URL set: how far behind the stream is, and what the endpoint answers. */
export async function AuditStreamStatus({ db, now }: { db: ConsoleDb; now: number }) {
  const line = await streamStatusLine(db, now);
  return (
    <p className="text-sm text-muted-foreground" data-testid="audit-stream-status">
      {line}
    </p>
  );
}
