import 'server-only';
/**
 * A page's reads that can fail for a reason the person can act on: a search past the read time limit
 * (narrow it) or a database not answering (try again in a moment). The page shows the message where
 * its results would be, rather than Next's error page, which hides it; any other failure is thrown on.
 */
import { ConsoleError } from '@/lib/console-error';
import { logger } from './logger';

export type PageRead<T> = { ok: true; value: T } | { ok: false; message: string };

const SAID_ON_THE_PAGE = new Set(['read_too_long', 'database_unavailable']);

/**
 * `tooLong`: what to say of a read past the limit on this page, where the general advice (narrow
 * the search) does not fit it: a list nobody searched, a group's history.
 */
export async function pageRead<T>(
  page: string,
  read: () => Promise<T>,
  { tooLong }: { tooLong?: string } = {},
): Promise<PageRead<T>> {
  try {
    return { ok: true, value: await read() };
  } catch (error) {
    if (!(error instanceof ConsoleError) || !SAID_ON_THE_PAGE.has(error.code)) throw error;
    // The database's failure is the console's to see to: in the log, with its cause.
    if (error.status >= 500) {
      logger.error({ page, code: error.code, setup: error.adminMessage }, 'console page read failed');
    }
    return {
      ok: false,
      message: error.code === 'read_too_long' ? (tooLong ?? error.message) : error.message,
    };
  }
}
