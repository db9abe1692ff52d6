import {
  CompiledQuery,
  type DatabaseConnection,
  type Driver,
  SqliteDialect,
  type SqliteDialectConfig,
  SqliteDriver,
} from 'kysely';

/**
 * SQLite transactions that take the write lock as they begin (BEGIN IMMEDIATE, not Kysely's plain
 * BEGIN): the write thread (lib/db/write-thread) is a second writer, and a transaction that read
 * before it wrote would fail at its first write (SQLITE_BUSY_SNAPSHOT) had the thread committed
 * meanwhile, instead of waiting for the thread's batch to end.
 */
export class ImmediateSqliteDialect extends SqliteDialect {
  readonly #config: SqliteDialectConfig;
  constructor(config: SqliteDialectConfig) {
    super(config);
    this.#config = config;
  }
  override createDriver(): Driver {
    return new (class extends SqliteDriver {
      override async beginTransaction(connection: DatabaseConnection): Promise<void> {
        await connection.executeQuery(CompiledQuery.raw('begin immediate'));
      }
    })(this.#config);
  }
}
