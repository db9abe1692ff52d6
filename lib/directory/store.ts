/**
 * The directory of user groups: what this console has seen of each group, per environment, kept
 * up to date by every get-or-create, rotation and deletion it makes, and searched by id or name.
 * Framework-free: takes the console database's Kysely instance (the search also its dialect:
 * SQLite's FTS5 trigram table, or ILIKE over pg_trgm indexes on PostgreSQL, with the same results).
 */
import { type Insertable, type SqlBool, sql } from 'kysely';
import { tokenFingerprint } from '@/lib/audit/fingerprint';
import type { ConsoleDatabase, ConsoleDb, DirectoryEntryTable } from '@/lib/db/console-database';
import { escapeLike } from '@/lib/db/like';
import type { Environment } from '@/lib/environments';

export interface DirectoryEntry {
  environment: Environment;
  userGroupId: string;
  name: string | null;
  teamId: number | null;
  properties: Record<string, unknown> | null;
  /** As this console last sent it; the service never returns a mapping. */
  mapping: Record<string, unknown> | null;
  tokenFingerprint: string | null;
  createdAt: string | null;
  createdBy: string | null;
  updatedAt: string;
  updatedBy: string | null;
  deletedAt: string | null;
  deletedBy: string | null;
}

/** A group as the service answered it. */
export interface ServiceGroup {
  provided_id: string;
  name: string;
  team_id: number;
  token: string;
  properties?: Record<string, unknown> | null;
}

interface Change {
  environment: Environment;
  operatorEmail: string;
  at?: Date;
}

/** A group as a bulk job kept it: its token sealed away, only the token's fingerprint at hand. */
type RecordedGroup = Omit<ServiceGroup, 'token'> & { tokenFingerprint: string | null };

const json = (value: unknown) => (value === undefined || value === null ? null : JSON.stringify(value));

/** After a get-or-create of a group. */
export interface GetOrCreateSeen extends Change {
  isNew: boolean;
  group: ServiceGroup | RecordedGroup;
  mappingSent: Record<string, unknown> | undefined;
}

/** After a rotation of a group: its new token. */
export interface RotationSeen extends Change {
  group: ServiceGroup | RecordedGroup;
}

/**
 * What the service answered about groups, in order: `get-or-create` or `rotate` each. A new group
 * starts its record afresh (even over a deleted one: the id was created anew); an existing one is
 * returned unchanged by the service, so the mapping this console sent was not applied and the
 * recorded one stays; a group that answers a rotation or a get-or-create exists, whatever the
 * directory last knew. A bulk job records hundreds at once: one statement per run of changes that
 * update the same columns, and never one group twice in a statement (PostgreSQL refuses that, and
 * the later change must win).
 */
export async function recordGroupsSeen(
  db: ConsoleDb,
  changes: ReadonlyArray<({ kind: 'get-or-create' } & GetOrCreateSeen) | ({ kind: 'rotate' } & RotationSeen)>,
): Promise<void> {
  const ROWS_PER_STATEMENT = 200;
  let chunk: Insertable<DirectoryEntryTable>[] = [];
  // What the chunk's conflicts update besides what every answer tells: its properties, its creation.
  let shape = { withProperties: false, isNew: false };
  // "Last change" (updated_at, updated_by) moves with a change only: a new group or a new token. A
  // get-or-create that found the group unchanged (Show token's look, too) is a read: who changed it
  // last stays the answer to "who changed this last?".
  let changed = false;
  const keys = new Set<string>();
  const flush = async () => {
    if (chunk.length === 0) return;
    const { withProperties, isNew } = shape;
    await db
      .insertInto('directory_entry')
      .values(chunk)
      .onConflict((conflict) =>
        conflict.columns(['environment', 'user_group_id']).doUpdateSet((eb) => ({
          name: eb.ref('excluded.name'),
          team_id: eb.ref('excluded.team_id'),
          token_fingerprint: eb.ref('excluded.token_fingerprint'),
          ...(changed
            ? { updated_at: eb.ref('excluded.updated_at'), updated_by: eb.ref('excluded.updated_by') }
            : {}),
          deleted_at: null,
          deleted_by: null,
          ...(withProperties ? { properties: eb.ref('excluded.properties') } : {}),
          ...(isNew
            ? {
                created_at: eb.ref('excluded.created_at'),
                created_by: eb.ref('excluded.created_by'),
                mapping: eb.ref('excluded.mapping'),
              }
            : {}),
        })),
      )
      .execute();
    chunk = [];
    keys.clear();
  };
  for (const change of changes) {
    const at = (change.at ?? new Date()).toISOString();
    const isNew = change.kind === 'get-or-create' && change.isNew;
    const withProperties = change.kind === 'get-or-create' && change.group.properties !== undefined;
    const key = `${change.environment}\u0000${change.group.provided_id}`;
    const isChange = isNew || change.kind === 'rotate';
    const sameShape =
      shape.withProperties === withProperties && shape.isNew === isNew && changed === isChange;
    if (!sameShape || keys.has(key) || chunk.length === ROWS_PER_STATEMENT) await flush();
    shape = { withProperties, isNew };
    changed = isChange;
    keys.add(key);
    chunk.push({
      environment: change.environment,
      user_group_id: change.group.provided_id,
      name: change.group.name,
      team_id: change.group.team_id,
      token_fingerprint:
        'token' in change.group ? tokenFingerprint(change.group.token) : change.group.tokenFingerprint,
      properties: withProperties ? json(change.group.properties) : null,
      updated_at: at,
      updated_by: change.operatorEmail,
      created_at: isNew ? at : null,
      created_by: isNew ? change.operatorEmail : null,
      mapping: isNew && change.kind === 'get-or-create' ? json(change.mappingSent) : null,
      deleted_at: null,
      deleted_by: null,
    });
  }
  await flush();
}

/** After a get-or-create (see recordGroupsSeen). */
export function recordGetOrCreate(db: ConsoleDb, change: GetOrCreateSeen): Promise<void> {
  return recordGroupsSeen(db, [{ kind: 'get-or-create', ...change }]);
}

/** After a rotation: the new token's fingerprint. */
export function recordRotation(db: ConsoleDb, change: RotationSeen): Promise<void> {
  return recordGroupsSeen(db, [{ kind: 'rotate', ...change }]);
}

/** After a deletion: kept, marked deleted, so its history stays findable. */
export async function recordDeletion(db: ConsoleDb, change: Change & { userGroupId: string }): Promise<void> {
  const at = (change.at ?? new Date()).toISOString();
  const deleted = {
    token_fingerprint: null,
    updated_at: at,
    updated_by: change.operatorEmail,
    deleted_at: at,
    deleted_by: change.operatorEmail,
  };
  await db
    .insertInto('directory_entry')
    .values({ environment: change.environment, user_group_id: change.userGroupId, ...deleted })
    .onConflict((conflict) => conflict.columns(['environment', 'user_group_id']).doUpdateSet(deleted))
    .execute();
}

export const directorySorts = ['updated', 'id', 'name', 'created'] as const;
export type DirectorySort = (typeof directorySorts)[number];

export interface DirectoryQuery {
  environment: Environment;
  /** Part of an id or a name (case-insensitive); empty lists every group. */
  search?: string;
  sort?: DirectorySort;
  descending?: boolean;
  page?: number;
  pageSize?: number;
  includeDeleted?: boolean;
}

export interface DirectoryPage {
  groups: DirectoryEntry[];
  /** Groups that match; for a search, counted up to SEARCH_MATCH_LIMIT (see totalIsLowerBound). */
  total: number;
  /** True when a search matches more groups than were counted: show "1,000+", ask to refine. */
  totalIsLowerBound: boolean;
  page: number;
  pageCount: number;
  pageSize: number;
}

const sortColumn = {
  updated: 'updated_at',
  id: 'user_group_id',
  name: 'name',
  created: 'created_at',
} as const satisfies Record<DirectorySort, keyof DirectoryEntryTable>;

/** Fewer characters than a trigram: searched by scanning, not by the index. */
const MIN_INDEXED_SEARCH = 3;

/**
 * A search that matches thousands of groups is one to refine, not to page through: a search
 * collects at most this many matches (40 pages of 25) and says when there are more. Collecting
 * them first is also what keeps a search fast at 100,000 groups: a few matches are then sorted by
 * themselves instead of found by walking the whole sort index, and many matches are found early on
 * that walk. An unfiltered list counts and pages exactly.
 */
export const SEARCH_MATCH_LIMIT = 1_000;

type DirectoryRows = ReturnType<typeof liveRows>;

function liveRows(db: ConsoleDb, query: DirectoryQuery) {
  const rows = db.selectFrom('directory_entry').where('directory_entry.environment', '=', query.environment);
  return query.includeDeleted ? rows : rows.where('directory_entry.deleted_at', 'is', null);
}

/**
 * What names a row within one environment's search: SQLite's rowid (the FTS table's key);
 * PostgreSQL has no stable rowid, and the id is unique within an environment.
 */
type RowKey = number | string;
const rowKeyOf = (database: ConsoleDatabase) =>
  database.dialect === 'postgres'
    ? sql<RowKey>`directory_entry.user_group_id`
    : sql<RowKey>`directory_entry.rowid`;

/** A LIKE of part of the id or the name, wildcards in the search taken literally. */
function containing(database: ConsoleDatabase, search: string) {
  const pattern = `%${escapeLike(search)}%`;
  // PostgreSQL: ILIKE ignores case as SQLite's LIKE does, and pg_trgm's GIN indexes answer it.
  const like = database.dialect === 'postgres' ? sql`ilike` : sql`like`;
  return sql<SqlBool>`(${sql.ref('directory_entry.user_group_id')} ${like} ${pattern} escape '\\' or ${sql.ref('directory_entry.name')} ${like} ${pattern} escape '\\')`;
}

/** The rows matching a search, as a filter, and their keys up to SEARCH_MATCH_LIMIT + 1. */
async function matchSearch(database: ConsoleDatabase, query: DirectoryQuery, search: string) {
  const { db } = database;
  const rows = liveRows(db, query);
  // Characters, not UTF-16 units: the trigram index counts code points.
  if (database.dialect === 'sqlite' && [...search].length >= MIN_INDEXED_SEARCH) {
    // A trigram phrase: the characters as typed, quotes doubled.
    const phrase = `"${search.replaceAll('"', '""')}"`;
    // Collected from the index's side, which stops at the limit.
    const { rows: found } = await sql<{ rowid: number }>`select directory_entry.rowid as rowid
      from directory_search join directory_entry on directory_entry.rowid = directory_search.rowid
      where directory_search match ${phrase} and directory_entry.environment = ${query.environment}
      ${query.includeDeleted ? sql`` : sql`and directory_entry.deleted_at is null`}
      limit ${SEARCH_MATCH_LIMIT + 1}`.execute(db);
    const filter = rows.where(
      sql<SqlBool>`directory_entry.rowid in (select rowid from directory_search where directory_search match ${phrase})`,
    );
    return { filter, keys: found.map((row): RowKey => row.rowid) };
  }
  const filter = rows.where(containing(database, search));
  // SQLite reads a short search from the id index, which holds the name too: no row is read to test it.
  const found = await filter
    .select(rowKeyOf(database).as('row_key'))
    .limit(SEARCH_MATCH_LIMIT + 1)
    .execute();
  return { filter, keys: found.map((row) => row.row_key) };
}

export async function searchDirectory(
  database: ConsoleDatabase,
  query: DirectoryQuery,
): Promise<DirectoryPage> {
  const { db } = database;
  const rowKey = rowKeyOf(database);
  const pageSize = query.pageSize ?? 25;
  // NUL ends an SQLite string early (the FTS query would fail) and PostgreSQL text cannot hold
  // one. No id or name holds one.
  const search = query.search?.replaceAll('\0', '').trim() ?? '';
  let candidates: DirectoryRows;
  let total: number;
  let totalIsLowerBound = false;
  if (search) {
    const { filter, keys } = await matchSearch(database, query, search);
    totalIsLowerBound = keys.length > SEARCH_MATCH_LIMIT;
    total = Math.min(keys.length, SEARCH_MATCH_LIMIT);
    candidates = totalIsLowerBound
      ? filter
      : liveRows(db, query).where(
          keys.length === 0 ? sql<SqlBool>`false` : sql<SqlBool>`${rowKey} in (${sql.join(keys)})`,
        );
  } else {
    candidates = liveRows(db, query);
    const counted = await candidates.select((eb) => eb.fn.countAll().as('total')).executeTakeFirstOrThrow();
    // PostgreSQL answers a count as a bigint string.
    total = Number(counted.total);
  }
  const pageCount = Math.max(1, Math.ceil(total / pageSize));
  const page = Math.min(Math.max(1, query.page ?? 1), pageCount);
  const sort = sortColumn[query.sort ?? 'updated'];
  const direction = (query.descending ?? query.sort === undefined) ? 'desc' : 'asc';
  // The page's rows found in the index first, then read: a deep page skips index entries, not rows.
  const found = await candidates
    .select(rowKey.as('row_key'))
    .orderBy(`directory_entry.${sort}`, (order) => {
      const ordered = direction === 'desc' ? order.desc() : order.asc();
      // SQLite sorts NULL (a name or creation time never seen) first; PostgreSQL last unless told.
      if (database.dialect === 'sqlite') return ordered;
      return direction === 'desc' ? ordered.nullsLast() : ordered.nullsFirst();
    })
    .orderBy('directory_entry.user_group_id', 'asc')
    .limit(pageSize)
    .offset((page - 1) * pageSize)
    .execute();
  const order = found.map((row) => row.row_key);
  const rows =
    order.length === 0
      ? []
      : await db
          .selectFrom('directory_entry')
          .selectAll()
          .select(rowKey.as('row_key'))
          .where('directory_entry.environment', '=', query.environment)
          .where(sql<SqlBool>`${rowKey} in (${sql.join(order)})`)
          .execute();
  const byKey = new Map(rows.map((row) => [row.row_key, row]));
  const groups = order.flatMap((key) => {
    const row = byKey.get(key);
    return row ? [toEntry(row)] : [];
  });
  return { groups, total, totalIsLowerBound, page, pageCount, pageSize };
}

/**
 * The ids of the live groups a search matches (part of an id or a name, as the directory's search),
 * in id order, at most `limit`: a rotation of "all matches" is made from the search itself.
 */
export async function directoryMatchingIds(
  database: ConsoleDatabase,
  environment: Environment,
  search: string,
  limit: number,
): Promise<string[]> {
  const part = search.replaceAll('\0', '').trim();
  if (!part) return [];
  const rows = await liveRows(database.db, { environment })
    .where(containing(database, part))
    .select('directory_entry.user_group_id')
    .orderBy('directory_entry.user_group_id')
    .limit(limit)
    .execute();
  return rows.map((row) => row.user_group_id);
}

export async function findDirectoryEntry(
  db: ConsoleDb,
  environment: Environment,
  userGroupId: string,
): Promise<DirectoryEntry | null> {
  const row = await db
    .selectFrom('directory_entry')
    .selectAll()
    .where('environment', '=', environment)
    .where('user_group_id', '=', userGroupId)
    .executeTakeFirst();
  return row ? toEntry(row) : null;
}

function toEntry(row: DirectoryEntryTable): DirectoryEntry {
  const parse = (text: string | null) =>
    text === null ? null : (JSON.parse(text) as Record<string, unknown>);
  return {
    environment: row.environment as Environment,
    userGroupId: row.user_group_id,
    name: row.name,
    teamId: row.team_id,
    properties: parse(row.properties),
    mapping: parse(row.mapping),
    tokenFingerprint: row.token_fingerprint,
    createdAt: row.created_at,
    createdBy: row.created_by,
    updatedAt: row.updated_at,
    updatedBy: row.updated_by,
    deletedAt: row.deleted_at,
    deletedBy: row.deleted_by,
  };
}
