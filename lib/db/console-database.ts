/**
 * The console's own database (operators, sessions, audit log, directory): SQLite at
 * DATA_DIR/console.sqlite (one better-sqlite3 connection per process), or PostgreSQL when
 * DATABASE_URL is set (a pg pool; several console instances share it). Either way one Kysely
 * instance is shared by better-auth and the console's own modules, which run the same queries on
 * both; what differs is named by `dialect`, read where it matters (migrations, directory search).
 * Opened on request, never at import. Depends on nothing else of the console: auth and audit build on it.
 */
import { chmodSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import {
  type CompiledQuery,
  type Dialect,
  type Generated,
  Kysely,
  PostgresDialect,
  type SqliteDatabase,
} from 'kysely';
import pg from 'pg';
import type { Clock } from '@/lib/clock';
import { survivesLostConnections } from '@/lib/pg-lost-connections';
import type {
  AccountTable,
  InvitationTable,
  OperatorTable,
  PasskeyTable,
  SessionTable,
  TwoFactorTable,
  UsedCodeTable,
  VerificationTable,
} from './auth-tables';
import { ImmediateSqliteDialect } from './immediate-sqlite-dialect';
import { callbackFormPool } from './pg-callback-pool';
import { poolConfig } from './pg-pool-config';
import { NO_JIT, postgresReadFailure, postgresReadPool } from './read-pool/postgres-read-pool';
import { failuresTranslated, gatedDialect, ReadPoolDialect } from './read-pool/read-dialect';
import type { ReadGate } from './read-pool/read-gate';
import { READ_TIME_LIMIT_MS, ReadPool } from './read-pool/read-pool';
import { inOneTransaction, startWriteThread, type WriteThread } from './write-thread/write-thread';

/** The audit log (lib/audit). Times are ISO 8601 UTC strings with milliseconds. */
export interface AuditEventTable {
  id: Generated<number>;
  at: string;
  operator_id: string | null;
  operator_email: string | null;
  /** One of lib/audit/schema.ts's actions. */
  action: string;
  /** Customer or Testing for a user group action; null for sign-ins and operator changes. */
  environment: string | null;
  user_group_id: string | null;
  user_group_name: string | null;
  /** `success`, `started` (the action was under way), or the error code the person saw. */
  outcome: string;
  request_id: string;
  /** First 12 hex of SHA-256 of the token the action returned or used; never the token. */
  token_fingerprint: string | null;
  /** For a rotation or deletion: the fingerprint of the token presented. */
  previous_token_fingerprint: string | null;
  /** A short description of what changed (operator changes, filters read); never a secret. */
  detail: string | null;
}

/**
 * The audit log's seals (lib/audit-chain): each one signs a batch of the chain, the entries with ids
 * in (after_id, through_id] and the settlements of entries sealed while `started`.
 */
export interface AuditSealTable {
  /** 1, 2, 3…: written by one conditional insert, so two consoles never seal the same batch. */
  id: number;
  after_id: number;
  through_id: number;
  entry_count: number;
  /** The chain's hash before this batch (the previous seal's head; a fixed genesis for the first). */
  previous_hash: string;
  head_hash: string;
  /** JSON: each link of the batch with its chain hash (lib/audit-chain/links.ts). */
  manifest: string;
  sealed_at: string;
  /** Which signing key: the first 16 hex of SHA-256 of its public key. */
  key_id: string;
  /** Ed25519, base64url, over the seal's fields (lib/audit-chain/signing-key.ts). */
  signature: string;
}

/** The sealer's working set: entries sealed while `started`, and their content when last sealed. */
interface AuditChainOpenTable {
  event_id: number;
  content_hash: string;
}

/** The audit log's stream (lib/audit-stream): its lease and how delivery went; while it exists, entries go to the outbox too. */
interface AuditStreamTable {
  name: string;
  lease_owner: string | null;
  lease_expires_at: string | null;
  /** Entries (revisions) delivered since the stream began. */
  delivered: number;
  last_delivered_at: string | null;
  /** The last failure, as the admin reads it ("answering 503", "unreachable"); null once delivering again. */
  last_failure: string | null;
  failing_since: string | null;
}

/** What the stream has yet to deliver, in id order: a snapshot of an entry as written or as settled. */
interface AuditOutboxTable {
  id: Generated<number>;
  /** What the object is: `audit.entry` (later perhaps a seal of the audit chain). */
  kind: string;
  entry_id: number;
  /** 0 as written, 1 as settled. */
  revision: number;
  written_at: string;
  /** The object to send, as JSON (fingerprints, never tokens). */
  body: string;
}

/** An operator the identity provider manages through SCIM (lib/scim/schema.ts). */
interface ScimUserTable {
  user_id: string;
  user_name: string;
  /** user_name lower-cased: SCIM's userName is compared without case. */
  user_name_key: string;
  external_id: string | null;
  given_name: string | null;
  family_name: string | null;
  created_at: string;
  updated_at: string;
  deleted_at: string | null;
}

/** A group of the identity provider; its display name may map to a role (SCIM_GROUP_ROLES). */
interface ScimGroupTable {
  id: string;
  display_name: string;
  display_name_key: string;
  external_id: string | null;
  created_at: string;
  updated_at: string;
}

interface ScimGroupMemberTable {
  group_id: string;
  user_id: string;
}

/** An action waiting for a second person (lib/approvals): its body; its secret part sealed, erased when it ends. */
interface ApprovalRequestTable {
  id: string;
  action: string;
  environment: string | null;
  /** The route's name, method and concrete path: where the decision is sent, and what runs. */
  route_name: string;
  method: string;
  path: string;
  /** The permission the route asks: an approver holds it too. */
  permission: string;
  subject: string;
  /** JSON of the body as it was requested, secret fields taken out. */
  body: string;
  sealed_secret: string | null;
  reason: string;
  requested_by: string;
  requested_by_email: string;
  requested_at: string;
  expires_at: string;
  state: string;
  decided_by: string | null;
  decided_by_email: string | null;
  decided_at: string | null;
  decision_reason: string | null;
  outcome: string | null;
}

/** The tables the console's own code reads and writes; better-auth owns `user`, `account`, … */
export interface ConsoleTables {
  audit_event: AuditEventTable;
  audit_stream: AuditStreamTable;
  audit_outbox: AuditOutboxTable;
  audit_seal: AuditSealTable;
  audit_chain_open: AuditChainOpenTable;
  user: OperatorTable;
  account: AccountTable;
  session: SessionTable;
  twoFactor: TwoFactorTable;
  passkey: PasskeyTable;
  verification: VerificationTable;
  operator_invitation: InvitationTable;
  used_code: UsedCodeTable;
  scim_user: ScimUserTable;
  scim_group: ScimGroupTable;
  scim_group_member: ScimGroupMemberTable;
  approval_request: ApprovalRequestTable;
}

export type ConsoleDb = Kysely<ConsoleTables>;

export type ConsoleDialect = 'sqlite' | 'postgres';

/** Where the console's database is (lib/config reads it from DATA_DIR or DATABASE_URL). */
export type ConsoleDatabaseLocation =
  | { dialect: 'sqlite'; file: string }
  | { dialect: 'postgres'; url: string };

export interface ConsoleDatabase {
  db: ConsoleDb;
  /** What a module's migrations and dialect-specific queries choose by; everything else is shared. */
  dialect: ConsoleDialect;
  /**
   * For the heavy reads (audit pages and exports, directory searches), under a time limit
   * (READ_TIME_LIMIT_MS): on SQLite worker threads with their own read-only connections
   * (lib/db/read-pool), so the event loop stays free; on PostgreSQL a pool whose statements time out.
   */
  reads: ConsoleDb;
  /**
   * From now until close, on SQLite, a thread of its own checkpoints the log and runs the background
   * batches, off the event loop (lib/db/write-thread); on PostgreSQL, nothing to start. The console
   * server's to call: a tool's few writes checkpoint as SQLite does by default.
   */
  startWriteThread(clock: Clock, onFailure?: (error: unknown) => void): void;
  /**
   * A background job's batch (retention's deletions): `queries` in one transaction, each one's
   * changed rows answered. On SQLite on the write thread while it runs, else on the main connection.
   */
  writeTransaction(queries: readonly CompiledQuery[]): Promise<number[]>;
  close(): Promise<void>;
}

/**
 * `readGate`: the console's (lib/server/compose.ts), at which every heavy read waits while a sign-in
 * is under way; tools that sign nobody in pass none.
 */
export function openConsoleDatabase(
  location: ConsoleDatabaseLocation,
  { readGate }: { readGate?: ReadGate } = {},
): ConsoleDatabase {
  const gated = (dialect: Dialect) => (readGate ? gatedDialect(dialect, readGate) : dialect);
  return location.dialect === 'postgres'
    ? openPostgres(location.url, gated)
    : openSqlite(location.file, gated);
}

type GatedDialect = (dialect: Dialect) => Dialect;

function openPostgres(url: string, gated: GatedDialect): ConsoleDatabase {
  const pool = new pg.Pool(poolConfig(url, { max: 10, options: NO_JIT }));
  survivesLostConnections(pool);
  const db = new Kysely<ConsoleTables>({ dialect: new PostgresDialect({ pool: callbackFormPool(pool) }) });
  const reads = new Kysely<ConsoleTables>({
    dialect: gated(
      failuresTranslated(
        // Opened on the first read.
        new PostgresDialect({ pool: async () => postgresReadPool(url, { limitMs: READ_TIME_LIMIT_MS }) }),
        (error) => postgresReadFailure(error, READ_TIME_LIMIT_MS),
      ),
    ),
  });
  return {
    db,
    reads,
    dialect: 'postgres',
    startWriteThread: () => {},
    writeTransaction: (queries) => inOneTransaction(db, queries),
    close: async () => {
      await reads.destroy();
      await db.destroy();
    },
  };
}

function openSqlite(file: string, gated: GatedDialect): ConsoleDatabase {
  mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const sqlite = new Database(file);
  // Password hashes and sessions: readable by the console's user only.
  chmodSync(file, 0o600);
  sqlite.pragma('journal_mode = WAL');
  // In WAL mode, NORMAL loses no committed transaction when the process dies (kill -9), only,
  // possibly, the last ones on a power cut; FULL would wait for the disk on every commit, and a
  // bulk job commits once per row.
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('busy_timeout = 5000');
  sqlite.pragma('foreign_keys = ON');
  // An erased secret (a sealed token, a session) is overwritten with zeros in the file and the WAL,
  // not only unlinked from its page, where a copy of the file would still hold it (issue 41).
  sqlite.pragma('secure_delete = ON');
  const db = new Kysely<ConsoleTables>({
    dialect: new ImmediateSqliteDialect({ database: reusingStatements(sqlite) }),
  });
  // Threads start on the first read.
  const reads = new Kysely<ConsoleTables>({
    dialect: gated(new ReadPoolDialect(() => new ReadPool({ file }))),
  });
  let writeThread: WriteThread | null = null;
  return {
    db,
    reads,
    dialect: 'sqlite',
    startWriteThread: (clock, onFailure) => {
      writeThread ??= startWriteThread(sqlite, file, clock, onFailure);
    },
    writeTransaction: (queries) =>
      writeThread?.running ? writeThread.transaction(queries) : inOneTransaction(db, queries),
    close: async () => {
      await writeThread?.stop();
      await reads.destroy();
      await db.destroy();
      if (sqlite.open) sqlite.close();
    },
  };
}

/**
 * Kysely prepares every query afresh; better-sqlite3 statements can be run again and again, and
 * every console request runs the same few queries (session, user, audit insert). A statement still
 * being iterated (a streamed query) is busy: such a query gets a fresh one. At most `size` are kept,
 * least recently used out first.
 */
function reusingStatements(sqlite: Database.Database, size = 256): SqliteDatabase {
  const statements = new Map<string, Database.Statement>();
  return {
    close: () => sqlite.close(),
    prepare: (sql) => {
      const cached = statements.get(sql);
      if (cached?.busy) return sqlite.prepare(sql);
      const statement = cached ?? sqlite.prepare(sql);
      // Re-inserted, so the Map's order is least recently used first.
      statements.delete(sql);
      statements.set(sql, statement);
      if (statements.size > size) statements.delete(statements.keys().next().value as string);
      return statement;
    },
  };
}
