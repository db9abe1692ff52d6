/**
 * Rows are marked `sending` a handful at a time, ahead of the workers that take them: one write per
 * handful instead of one per row. A row so marked may have been sent; after a crash that is all a
 * `sending` row means, and what the recovery assumes (send-row.ts).
 */
import { sql } from 'kysely';
import type { JobsDb } from './schema';
import type { Row } from './send-row';

export interface RowClaims {
  /** Answers once rows[index] is marked `sending`, marking the next handful when it is not yet. */
  through(index: number): Promise<void>;
  /** Rows from `from` on were marked but never taken (the job paused or stopped): back to pending. */
  release(from: number): Promise<void>;
}

/** `rows`: the job's rows to run, in order; `size`: how many to mark at a time. */
export function claimRowsAhead(jobs: JobsDb, jobId: string, rows: Row[], size: number): RowClaims {
  let claimedUpTo = 0;
  let claiming: Promise<void> | null = null;
  const setStatus = (status: 'pending' | 'sending', marked: Row[]) =>
    jobs
      .updateTable('bulk_job_row')
      .set(status === 'sending' ? { status, attempts: sql`attempts + 1` } : { status })
      .where('job_id', '=', jobId)
      .where(
        'row_number',
        'in',
        marked.map((row) => row.row_number),
      )
      .execute();
  const mark = async (from: number, to: number) => {
    await setStatus('sending', rows.slice(from, to));
    claimedUpTo = to;
  };
  return {
    async through(index) {
      while (index >= claimedUpTo) {
        claiming ??= mark(claimedUpTo, Math.min(rows.length, claimedUpTo + size)).finally(() => {
          claiming = null;
        });
        await claiming;
      }
    },
    async release(from) {
      // Rows found `sending` stay so: a dead console may have sent them.
      const unsent = rows.slice(from, claimedUpTo).filter((row) => row.status === 'pending');
      if (unsent.length > 0) await setStatus('pending', unsent);
    },
  };
}

/** Leaves one row as it stands when its worker stops without an outcome for it. */
export async function setRowStatus(jobs: JobsDb, row: Row, status: 'pending' | 'sending'): Promise<void> {
  await jobs
    .updateTable('bulk_job_row')
    .set({ status })
    .where('job_id', '=', row.job_id)
    .where('row_number', '=', row.row_number)
    .execute();
}
