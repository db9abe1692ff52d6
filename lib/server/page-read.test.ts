import { afterEach, describe, expect, it, vi } from 'vitest';
import { ConsoleError } from '@/lib/console-error';
import { readTooLong } from '@/lib/db/read-pool/read-pool';
import { logger } from './logger';
import { pageRead } from './page-read';

afterEach(() => vi.restoreAllMocks());

const unavailable = new ConsoleError(
  'database_unavailable',
  "The console's database did not answer, so this could not be read. Try again in a moment.",
  {},
  'PostgreSQL did not answer a read (ECONNRESET): check the database',
);

describe('a page read', () => {
  it('gives the rows when the read answers', async () => {
    await expect(pageRead('directory', async () => [1, 2])).resolves.toEqual({ ok: true, value: [1, 2] });
  });

  it('gives the message to show for a read past the time limit, and logs nothing (narrowing is the person’s to do)', async () => {
    const logged = vi.spyOn(logger, 'error');
    const read = await pageRead('audit', () => Promise.reject(readTooLong(5_000)));
    expect(read).toEqual({ ok: false, message: readTooLong(5_000).message });
    expect(logged).not.toHaveBeenCalled();
  });

  it("says a read past the limit in the page's own words when it has them, and a database not answering as it is", async () => {
    const tooLong = 'This group’s history took too long to read and was stopped. Try again in a moment.';
    vi.spyOn(logger, 'error').mockImplementation(() => undefined);
    await expect(pageRead('group', () => Promise.reject(readTooLong(5_000)), { tooLong })).resolves.toEqual({
      ok: false,
      message: tooLong,
    });
    await expect(pageRead('group', () => Promise.reject(unavailable), { tooLong })).resolves.toEqual({
      ok: false,
      message: unavailable.message,
    });
  });

  it('gives the message to show for a database not answering, and logs its cause', async () => {
    const logged = vi.spyOn(logger, 'error').mockImplementation(() => undefined);
    const read = await pageRead('group', () => Promise.reject(unavailable));
    expect(read).toEqual({ ok: false, message: unavailable.message });
    expect(logged).toHaveBeenCalledWith(
      { page: 'group', code: 'database_unavailable', setup: unavailable.adminMessage },
      'console page read failed',
    );
  });

  it('throws on any other failure: the page’s error boundary, not a message that could mislead', async () => {
    const forbidden = new ConsoleError('forbidden', 'no');
    await expect(pageRead('audit', () => Promise.reject(forbidden))).rejects.toBe(forbidden);
    const bug = new TypeError('undefined is not a function');
    await expect(pageRead('audit', () => Promise.reject(bug))).rejects.toBe(bug);
  });
});
