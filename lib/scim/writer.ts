import 'server-only';
import type { ConsoleAuth } from '@/lib/auth/options';
import type { Clock } from '@/lib/clock';
import type { ScimConfig } from '@/lib/config/scim';
import type { ConsoleDb, ConsoleDialect } from '@/lib/db/console-database';

/**
 * What SCIM's writes of operators and groups are handed (by its frame, from the console's server):
 * its own module, so that users.ts and group-writes.ts each import it rather than one another.
 */
export interface ScimWriter {
  auth: ConsoleAuth;
  db: ConsoleDb;
  dialect: ConsoleDialect;
  scim: ScimConfig;
  /** What stamps the rows' times (the console's clock, a test's in tests). */
  clock: Pick<Clock, 'now'>;
}
