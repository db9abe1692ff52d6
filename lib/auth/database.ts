/**
 * The console's own database (operators, sessions, audit log): SQLite at DATA_DIR/console.sqlite,
 * one better-sqlite3 connection per process shared by better-auth and the audit log through one
 * Kysely instance. Opened on request, never at import.
 */
import { chmodSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { Kysely, type SqliteDatabase, SqliteDialect } from 'kysely';
import type { AuditDatabase } from '@/lib/audit/schema';

/** The columns of better-auth's `user` table (with the admin plugin) that the console reads. */
export interface OperatorTable {
  id: string;
  email: string;
  name: string;
  role: string | null;
  banned: number | null;
  /** better-auth writes dates to SQLite as ISO strings (older rows may hold epoch milliseconds). */
  createdAt: string | number;
}

/** The console database as seen when reading operators next to the audit log. */
export function withOperators(db: Kysely<AuditDatabase>): Kysely<AuditDatabase & { user: OperatorTable }> {
  return db.withTables<{ user: OperatorTable }>();
}

export interface ConsoleDatabase {
  db: Kysely<AuditDatabase>;
  close(): Promise<void>;
}

export function openConsoleDatabase(file: string): ConsoleDatabase {
  mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const sqlite = new Database(file);
  // Password hashes and sessions: readable by the console's user only.
  chmodSync(file, 0o600);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('busy_timeout = 5000');
  sqlite.pragma('foreign_keys = ON');
  const db = new Kysely<AuditDatabase>({
    dialect: new SqliteDialect({ database: reusingStatements(sqlite) }),
  });
  return {
    db,
    close: async () => {
      await db.destroy();
      if (sqlite.open) sqlite.close();
    },
  };
}

/**
 * Kysely prepares every query afresh; better-sqlite3 statements can be run again and again. Every
 * console request runs the same few queries (session, user, audit insert), and preparing them was
 * about 3% of the get-or-create route's CPU in `npm run bench -- console`. A statement still being
 * iterated (a streamed query) is busy: such a query gets a fresh one. At most `size` are kept.
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
