import 'server-only';
import { ConsoleError } from '@/lib/console-error';
import { jobResultToCsv } from '@/lib/jobs/result-csv';
import { jobResultRows } from '@/lib/jobs/result-rows';
import { rotationPreview, rotationPreviewToCsv } from '@/lib/jobs/rotation-preview';
import type { JobProgress } from '@/lib/jobs/store';
import { claimResultTokens } from '@/lib/jobs/token-claim';
import { plural } from '@/lib/plural';
import type { ConsoleServer, Operator } from '@/lib/server';
import type { AuditFacts } from '@/lib/server/route';
import { formatUtc } from '@/lib/time';
import { csvFile, resultFileName, tokenDownloadRefusal } from './server';

/** What a file's entry learns as it is made (its row count), to say when it is settled. */
type Note = (facts: AuditFacts) => void;

/**
 * A finished job's result with the tokens it produced, handed out once: the console then erases
 * them, and the file is their only copy. Only the job's owner or an admin may take them.
 */
export async function takeJobTokens(
  server: ConsoleServer,
  operator: Operator,
  { job }: JobProgress,
  note: Note,
): Promise<Response> {
  const refusal = tokenDownloadRefusal(operator, job);
  if (refusal) throw new ConsoleError('forbidden', refusal);
  if (job.status !== 'finished' && job.status !== 'cancelled')
    throw new ConsoleError(
      'conflict',
      'Tokens can be downloaded once the job has finished or was cancelled.',
    );
  const claim = await claimResultTokens(
    server.database.db,
    job.id,
    server.jobs.vault,
    operator.email,
    server.clock,
  );
  if ('settling' in claim)
    throw new ConsoleError(
      'conflict',
      'The job is still settling the rows it had sent when it stopped: download the tokens in a few seconds.',
    );
  if (!('rows' in claim))
    throw new ConsoleError(
      'conflict',
      `The tokens were downloaded and erased on ${formatUtc(claim.takenAt)}${claim.takenBy ? ` by ${claim.takenBy}` : ''}. A group’s current token is on its page (Show token).`,
    );
  note({ detail: `with tokens (now erased): ${plural(claim.rows.length, 'row')}` });
  return csvFile(jobResultToCsv(claim.rows, true), resultFileName(job, true));
}

/** A job's result as CSV, every row's outcome, without tokens. */
export async function jobResultFile(
  server: ConsoleServer,
  { job }: JobProgress,
  note: Note,
): Promise<Response> {
  const rows = await jobResultRows(server.database.db, job.id, null);
  note({ detail: `without tokens: ${plural(rows.length, 'row')}` });
  return csvFile(jobResultToCsv(rows, false), resultFileName(job, false));
}

/** Every group a rotation job will rotate, as CSV: line, id, name and the fingerprint to replace. */
export async function rotationPreviewFile(
  server: ConsoleServer,
  { job }: JobProgress,
  note: Note,
): Promise<Response> {
  if (job.kind !== 'rotate')
    throw new ConsoleError('not_found', 'Only a rotation job lists the groups it will rotate.');
  const preview = await rotationPreview(server.database.db, server.jobs.vault, job);
  note({ detail: `preview: ${plural(preview.total, 'row')}` });
  return csvFile(
    rotationPreviewToCsv(preview.rows),
    `rotate-preview-${job.environment.toLowerCase()}-${job.id.slice(0, 8)}.csv`,
  );
}
