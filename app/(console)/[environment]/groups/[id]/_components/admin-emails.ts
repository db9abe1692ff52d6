import 'server-only';
import type { ConsoleDb } from '@/lib/db/console-database';

/**
 * The emails of the console's active admins, to name where a support person or a viewer reads
 * what their role cannot do (#43, item 4): "ask an admin" is a step shorter with whom to ask.
 * At most `limit`, in order of email; a disabled (banned) admin cannot help.
 */
export async function activeAdminEmails(db: ConsoleDb, limit = 3): Promise<string[]> {
  const rows = await db
    .selectFrom('user')
    .select(['email', 'banned'])
    .where('role', '=', 'admin')
    .orderBy('email')
    .execute();
  return rows
    .filter((row) => row.banned !== true && row.banned !== 1)
    .slice(0, limit)
    .map((row) => row.email);
}

/** "ask an admin (a@x, b@y)", or without names when none is found. */
export function askAnAdmin(emails: string[]): string {
  return emails.length === 0 ? 'ask an admin of the console' : `ask an admin (${emails.join(', ')})`;
}
