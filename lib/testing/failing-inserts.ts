/**
 * For tests of what happens when a table refuses writes (a full disk, a broken table): runs `run`
 * while every insert into `table` fails, on either dialect, then lets inserts through again.
 */
import { sql } from 'kysely';
import type { ConsoleDatabase } from '@/lib/db/console-database';

export async function whileInsertsFail<T>(
  database: ConsoleDatabase,
  table: 'audit_event' | 'directory_entry',
  run: () => Promise<T>,
): Promise<T> {
  const name = sql.id(`${table}_off`);
  if (database.dialect === 'postgres') {
    await sql`create function ${name}() returns trigger language plpgsql as $$ begin raise exception '${sql.raw(table)} off'; end $$`.execute(
      database.db,
    );
    await sql`create trigger ${name} before insert on ${sql.table(table)} execute function ${name}()`.execute(
      database.db,
    );
  } else {
    await sql`create trigger ${name} before insert on ${sql.table(table)} begin select raise(abort, '${sql.raw(table)} off'); end`.execute(
      database.db,
    );
  }
  try {
    return await run();
  } finally {
    if (database.dialect === 'postgres') {
      await sql`drop trigger ${name} on ${sql.table(table)}`.execute(database.db);
      await sql`drop function ${name}`.execute(database.db);
    } else {
      await sql`drop trigger ${name}`.execute(database.db);
    }
  }
}
