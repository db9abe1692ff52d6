/**
 * A job's rows, a page at a time, in the file's order: each row's group and what happened to it.
 * Paged by keyset (after the last row's line and number, on the index jobs_input adds), so the
 * 100th page of 10,000 rows costs what the first does. Never a token: only the columns named here
 * are read. Framework-free, like the store.
 */
import type { ConsoleDb } from '@/lib/db/console-database';
import type { JobRow, JobRowsPage, JobRowsQuery, RowFilter, RowOutcome } from '@/lib/jobs/contract';
import { type BulkJobTable, jobsDb, type RowStatus } from './schema';

type Job = Pick<BulkJobTable, 'id' | 'kind' | 'status'>;

/** What a row came to, from its status, its answer and its job's state. */
function rowOutcome(
  job: Pick<Job, 'kind' | 'status'>,
  row: { status: RowStatus; new_user_group: number | null },
): RowOutcome {
  switch (row.status) {
    case 'invalid':
      return 'refused';
    case 'failed':
      return 'failed';
    case 'done':
      return job.kind === 'rotate' ? 'rotated' : row.new_user_group === 1 ? 'created' : 'found';
    default:
      return job.status === 'draft' ? 'ready' : job.status === 'cancelled' ? 'not-sent' : 'waiting';
  }
}

function parseCursor(after: string | undefined): { line: number; row: number } | null {
  if (!after) return null;
  const [line, row] = after.split('.').map(Number);
  return { line: line ?? 0, row: row ?? 0 };
}

export async function jobRowsPage(db: ConsoleDb, job: Job, query: JobRowsQuery): Promise<JobRowsPage> {
  const jobs = jobsDb(db);
  const filtered = (show: RowFilter) => {
    let select = jobs.selectFrom('bulk_job_row').where('job_id', '=', job.id);
    if (show === 'refused') select = select.where('status', '=', 'invalid');
    else if (show === 'failed') select = select.where('status', '=', 'failed');
    else if (show === 'pending') select = select.where('status', 'in', ['pending', 'sending']);
    else if (show !== 'all') {
      select = select.where('status', '=', 'done');
      // A kind's rows have one outcome of theirs: a rotation's are never created, and so on.
      if (show === 'rotated' ? job.kind !== 'rotate' : job.kind !== 'get-or-create')
        select = select.where((eb) => eb.lit(false));
      else if (show !== 'rotated') select = select.where('new_user_group', '=', show === 'created' ? 1 : 0);
    }
    return select;
  };
  const cursor = parseCursor(query.after);
  let page = filtered(query.show)
    .select([
      'row_number',
      'source_line',
      'user_group_id',
      'name',
      'result_name',
      'status',
      'error',
      'new_user_group',
    ])
    .orderBy('source_line')
    .orderBy('row_number')
    // One more than asked: whether there is a next page.
    .limit(query.limit + 1);
  if (cursor)
    page = page.where((eb) =>
      eb.or([
        eb('source_line', '>', cursor.line),
        eb.and([eb('source_line', '=', cursor.line), eb('row_number', '>', cursor.row)]),
      ]),
    );
  const [found, counted] = await Promise.all([
    page.execute(),
    filtered(query.show)
      .select((eb) => eb.fn.countAll().as('rows'))
      .executeTakeFirstOrThrow(),
  ]);
  const rows = found.slice(0, query.limit);
  const last = rows.at(-1);
  return {
    rows: rows.map(
      (row): JobRow => ({
        line: row.source_line,
        userGroupId: row.user_group_id,
        name: row.result_name ?? row.name,
        outcome: rowOutcome(job, row),
        note: row.status === 'invalid' || row.status === 'failed' ? row.error : null,
      }),
    ),
    total: Number(counted.rows),
    next: found.length > query.limit && last ? `${last.source_line}.${last.row_number}` : null,
  };
}
