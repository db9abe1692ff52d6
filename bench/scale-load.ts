/**
 * The scale bench's rows, generated in bulk SQL straight into a console database (a recursive CTE
 * on SQLite, `generate_series` on PostgreSQL; not through the API, which would take hours):
 * - audit entries three seconds apart from 2025-11-27T00:00Z, so that a day holds the same 28,800
 *   entries at every size (10M reach 2026-11-19), 50 operators, ten actions in turn (three of them
 *   reads), a bulk job's 1,000 entries in every 100,000;
 * - groups named like `acme-12345` / `Acme 12345 Ltd` (bench/directory.ts's words, one in ten each),
 *   one in five in Testing, one in twenty deleted; the oldest `oldGroups` (the same count at both
 *   sizes) named `Heritage Acme 12345 Ltd`: a term whose matches are all old groups (issue 44's first row);
 * - one token whose fingerprint a group and one entry hold, for Identify to find;
 * - the 50 operators, beside the first admin.
 */
import { sql } from 'kysely';
import { tokenFingerprint } from '@/lib/audit/fingerprint';
import type { ConsoleDatabase } from '@/lib/db/console-database';
import { groupWords } from './directory';

const OPERATORS = 50;
/** 2025-11-27T00:00:00Z: the first entry is three seconds after it. */
export const AUDIT_START_S = 1_764_201_600;
export const AUDIT_STEP_S = 3;

/** The token Identify is asked about: its fingerprint is planted (plantToken). */
export const PLANTED_TOKEN = `bench${'5ca1e'.repeat(11)}`;
/** The group and the entry holding it (`acme-4242` exists at any size of 4,242 groups or more). */
const PLANTED_GROUP = 'acme-4242';
const PLANTED_REQUEST = 'req-4246';

/** The first id at or after an instant, read from the database (ids follow time, but say so). */
export async function firstIdAt(database: ConsoleDatabase, at: string): Promise<number> {
  const row = await database.db
    .selectFrom('audit_event')
    .select('id')
    .where('at', '>=', at)
    .orderBy('id')
    .limit(1)
    .executeTakeFirst();
  if (!row)
    throw new Error(`no audit entry at or after ${at}: the bench's dates are outside the loaded rows`);
  return Number(row.id);
}

export async function loadAudit(database: ConsoleDatabase, rows: number, groups: number): Promise<void> {
  const { db, dialect } = database;
  const columns = sql`audit_event (at, operator_id, operator_email, action, environment, user_group_id,
    user_group_name, outcome, request_id, token_fingerprint, previous_token_fingerprint, detail)`;
  const rest = sql`'op-' || (i % ${sql.lit(OPERATORS)}), 'person' || (i % ${sql.lit(OPERATORS)}) || '@example.com',
    case i % 10 when 0 then 'rotate' when 1 then 'delete' when 2 then 'sign-in' when 3 then 'show-token'
      when 4 then 'audit.read' when 5 then 'token.identify' else 'get-or-create' end,
    case when i % 10 = 2 then null when i % 5 = 0 then 'Testing' else 'Customer' end,
    case when i % 10 = 2 then null else 'group-' || (i % ${sql.lit(groups)}) end,
    'Group ' || (i % ${sql.lit(groups)}), 'success',
    case when i % 100000 < 1000 then 'job-' || (i / 100000) else 'req-' || i end`;
  if (dialect === 'sqlite') {
    for (let first = 1; first <= rows; first += 500_000) {
      const last = Math.min(rows, first + 499_999);
      await sql`with recursive n(i) as (select cast(${first} as integer) union all select i + 1 from n where i < ${last})
        insert into ${columns}
        select strftime('%Y-%m-%dT%H:%M:%fZ', ${sql.lit(AUDIT_START_S)} + i * ${sql.lit(AUDIT_STEP_S)}, 'unixepoch'),
          ${rest}, substr(hex(randomblob(6)), 1, 12), null, null
        from n`.execute(db);
    }
    return;
  }
  await sql`insert into ${columns}
    select to_char(to_timestamp(${sql.lit(AUDIT_START_S)} + i * ${sql.lit(AUDIT_STEP_S)}) at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
      ${rest}, substr(md5(i::text), 1, 12), null, null
    from generate_series(1::bigint, ${rows}::bigint) as i`.execute(db);
}

/** The word only the oldest groups' names hold: a search whose many matches are all old. */
export const OLD_WORD = 'Heritage';

export async function loadDirectory(
  database: ConsoleDatabase,
  groups: number,
  oldGroups: number,
): Promise<void> {
  const { db, dialect } = database;
  const old = sql`case when i <= ${sql.lit(oldGroups)} then ${sql.lit(`${OLD_WORD} `)} else '' end`;
  const word = sql.raw(
    `(case i % 10 ${groupWords.map((w, index) => `when ${index} then '${w}'`).join(' ')} end)`,
  );
  const at = sql.lit('2026-01-01T00:00:00.000Z');
  const columns = sql`directory_entry (environment, user_group_id, name, team_id, properties, mapping,
    token_fingerprint, created_at, created_by, updated_at, updated_by, deleted_at, deleted_by)`;
  const head = sql`case when i % 5 = 0 then 'Testing' else 'Customer' end, ${word} || '-' || i`;
  const deleted = sql`case when i % 20 = 7 then ${at} end, case when i % 20 = 7 then 'person1@example.com' end`;
  if (dialect === 'sqlite') {
    for (let first = 1; first <= groups; first += 250_000) {
      const last = Math.min(groups, first + 249_999);
      await sql`with recursive n(i) as (select cast(${first} as integer) union all select i + 1 from n where i < ${last})
        insert into ${columns}
        select ${head}, ${old} || upper(substr(${word}, 1, 1)) || substr(${word}, 2) || ' ' || i || ' Ltd',
          i, '{"plan":"pro"}', null, substr(hex(randomblob(6)), 1, 12), ${at}, 'person1@example.com',
          strftime('%Y-%m-%dT%H:%M:%fZ', 1767225600 + i * 7, 'unixepoch'), 'person1@example.com', ${deleted}
        from n`.execute(db);
    }
    return;
  }
  await sql`insert into ${columns}
    select ${head}, ${old} || initcap(${word}) || ' ' || i || ' Ltd',
      i, '{"plan":"pro"}', null, substr(md5(i::text), 1, 12), ${at}, 'person1@example.com',
      to_char(to_timestamp(1767225600 + i * 7) at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
      'person1@example.com', ${deleted}
    from generate_series(1::bigint, ${groups}::bigint) as i`.execute(db);
}

/**
 * The 50 operators the entries name, as better-auth's table holds them (copies of the first admin's
 * row): a person filter (`operator=person7`) is resolved through them before the log is read.
 */
export async function addOperators(database: ConsoleDatabase): Promise<void> {
  const admin = await database.db.selectFrom('user').selectAll().executeTakeFirstOrThrow();
  const operators = Array.from({ length: OPERATORS }, (_, i) => ({
    ...admin,
    id: `op-${i}`,
    email: `person${i}@example.com`,
    name: `Person ${i}`,
  }));
  await database.db.insertInto('user').values(operators).execute();
}

/**
 * A group's and an entry's fingerprint become PLANTED_TOKEN's. On PostgreSQL, then the tables as
 * autovacuum would have left them by the time they are this size: their statistics gathered, and
 * their pages marked all-visible, so that an index alone can answer (with ANALYZE only, a search
 * took 9 ms that took 180 ms once VACUUM had run: lib/directory/matching.ts's IN_NO_INDEX), and
 * no autovacuum of a freshly loaded table runs during the measuring. SQLite gathers none by itself,
 * and the console runs no ANALYZE: its plans are measured as they are.
 */
export async function plantTokenAndVacuum(database: ConsoleDatabase): Promise<void> {
  const fingerprint = tokenFingerprint(PLANTED_TOKEN);
  const { db } = database;
  await sql`update directory_entry set token_fingerprint = ${fingerprint}
    where environment = 'Customer' and user_group_id = ${PLANTED_GROUP}`.execute(db);
  await sql`update audit_event set token_fingerprint = ${fingerprint} where request_id = ${PLANTED_REQUEST}`.execute(
    db,
  );
  if (database.dialect === 'postgres') await sql`vacuum (analyze)`.execute(db);
}
