/**
 * A file chosen for a bulk job, read in the browser before it is sent, and what a person reads when
 * that or the upload fails: the console's words only (a browser's or a library's own are not).
 */
import { formErrorMessage } from '@/components/form-errors';
import { ConsoleApiError } from '@/lib/browser-client/console-client';
import { MAX_CSV_MB } from '@/lib/jobs/contract';

const MAX_BYTES = MAX_CSV_MB * 1024 * 1024;

/** Why a chosen file was not sent, in the console's words: the browser's one error, no answer behind it. */
const refused = (message: string) => new ConsoleApiError('invalid_request', message);

/** Read a chosen file as text, refusing an oversized one before it is uploaded. */
export async function readChosenFile(file: File): Promise<string> {
  if (file.size > MAX_BYTES)
    throw refused(`${file.name} is over ${MAX_CSV_MB} MB: split it into several jobs.`);
  try {
    return await file.text();
  } catch {
    // Moved, deleted or locked since it was chosen: the browser's own words name none of that.
    throw refused(`${file.name} could not be read: choose it again.`);
  }
}

/** A refused file's reason, else what every form shows (the console's words, or a calm fallback). */
export const errorMessage = (error: unknown) => formErrorMessage(error);
