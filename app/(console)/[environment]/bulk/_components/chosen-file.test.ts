import { describe, expect, it } from 'vitest';
import { UNEXPECTED_ERROR_MESSAGE } from '@/components/form-errors';
import { ConsoleApiError } from '@/lib/browser-client/console-client';
import { MAX_CSV_MB } from '@/lib/jobs/contract';
import { errorMessage, readChosenFile } from './chosen-file';

/** A chosen file whose reading fails as a browser's does when the file moved after it was chosen. */
const unreadable = (name: string) =>
  ({
    name,
    size: 10,
    text: () => Promise.reject(new DOMException('The requested file could not be read', 'NotReadableError')),
  }) as unknown as File;

const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => null,
    (error: unknown) => error,
  );

describe('a chosen file', () => {
  it('is read as text', async () => {
    expect(await readChosenFile(new File(['user_group_id\nacme'], 'groups.csv'))).toBe('user_group_id\nacme');
  });

  it('is refused in the console’s words when too big, before it is read', async () => {
    const big = { name: 'big.csv', size: MAX_CSV_MB * 1024 * 1024 + 1, text: () => Promise.reject() };
    expect(errorMessage(await failure(readChosenFile(big as unknown as File)))).toBe(
      `big.csv is over ${MAX_CSV_MB} MB: split it into several jobs.`,
    );
  });

  it('that cannot be read says so in the console’s words, not the browser’s', async () => {
    expect(errorMessage(await failure(readChosenFile(unreadable('groups.csv'))))).toBe(
      'groups.csv could not be read: choose it again.',
    );
  });

  it('shows the console’s refusals as they are, and nothing of any other error', () => {
    expect(errorMessage(new ConsoleApiError('invalid_request', 'Check the input: csv.'))).toBe(
      'Check the input: csv.',
    );
    expect(errorMessage(new TypeError('Failed to fetch'))).toBe(UNEXPECTED_ERROR_MESSAGE);
  });
});
