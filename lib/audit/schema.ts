/**
 * The audit log's table and its migrations, on the console database (Kysely over SQLite).
 * Times are ISO 8601 UTC strings with milliseconds, so text order is time order.
 */
import { type Generated, type Kysely, type Migration, type MigrationProvider, Migrator, sql } from 'kysely';
import { z } from 'zod';

export const auditActions = [
  'get-or-create',
  'rotate',
  'delete',
  'sign-in',
  'sign-out',
  'operator.create',
  'operator.set-role',
  'operator.disable',
  'operator.enable',
  'password.change',
  'audit.read',
  'audit.export',
] as const;
export const auditActionSchema = z.enum(auditActions);
export type AuditAction = z.infer<typeof auditActionSchema>;

export interface AuditEventTable {
  id: Generated<number>;
  at: string;
  operator_id: string | null;
  operator_email: string | null;
  action: AuditAction;
  user_group_id: string | null;
  user_group_name: string | null;
  /** `success`, or the error code the person saw. */
  outcome: string;
  request_id: string;
  /** First 12 hex of SHA-256 of the token the action returned or used; never the token. */
  token_fingerprint: string | null;
  /** For a rotation or deletion: the fingerprint of the token presented. */
  previous_token_fingerprint: string | null;
  /** A short description of what changed (operator changes); never a secret. */
  detail: string | null;
}

export interface AuditDatabase {
  audit_event: AuditEventTable;
}

const migrations: Record<string, Migration> = {
  '2026-11-21-001-audit-event': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('audit_event')
        .addColumn('id', 'integer', (column) => column.primaryKey().autoIncrement())
        .addColumn('at', 'text', (column) => column.notNull())
        .addColumn('operator_id', 'text')
        .addColumn('operator_email', 'text')
        .addColumn('action', 'text', (column) => column.notNull())
        .addColumn('user_group_id', 'text')
        .addColumn('user_group_name', 'text')
        .addColumn('outcome', 'text', (column) => column.notNull())
        .addColumn('request_id', 'text', (column) => column.notNull())
        .addColumn('token_fingerprint', 'text')
        .addColumn('previous_token_fingerprint', 'text')
        .addColumn('detail', 'text')
        .execute();
      await db.schema.createIndex('audit_event_at').on('audit_event').column('at').execute();
      await db.schema
        .createIndex('audit_event_group')
        .on('audit_event')
        .columns(['user_group_id', 'action', 'id'])
        .execute();
      await db.schema
        .createIndex('audit_event_operator')
        .on('audit_event')
        .column('operator_email')
        .execute();
    },
    async down(db: Kysely<unknown>) {
      await sql`drop table audit_event`.execute(db);
    },
  },
};

const provider: MigrationProvider = { getMigrations: async () => migrations };

/** Idempotent: applies what is missing, in order. */
export async function migrateAuditLog(db: Kysely<AuditDatabase>): Promise<void> {
  const migrator = new Migrator({
    // Migrations see the schema as it was when written, not as the current types say.
    db: db as unknown as Kysely<unknown>,
    provider,
    migrationTableName: 'audit_migration',
    migrationLockTableName: 'audit_migration_lock',
  });
  const { error, results } = await migrator.migrateToLatest();
  if (error) {
    const failed = results?.find((result) => result.status === 'Error')?.migrationName ?? 'unknown';
    throw new Error(`The audit log migration ${failed} failed: ${errorMessage(error)}`);
  }
}

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
