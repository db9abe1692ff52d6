/**
 * Queries built and compiled by Kysely once, then executed per request with new parameters. The hot
 * paths run the same handful of statements, and building and compiling one per request cost about a
 * fifth of a request's CPU (README, "Speed-ups, measured"), so they are compiled at start (per
 * dialect: `?` for SQLite, `$1` for PostgreSQL) and stay on Kysely's executor, on both stores alike.
 * On SQLite their statements also stay prepared (database.ts: the one statement cache).
 */
import type { Compilable, CompiledQuery, Kysely, QueryResult } from 'kysely';
import type { ServiceDatabase } from './database';

const PLACEHOLDER = '\u0000ugs-parameter:';

/** Runs on the database it was prepared for, or on a transaction of it (`executor`). */
export type PreparedQuery<Params, Row> = (
  params: Params,
  // biome-ignore lint/suspicious/noExplicitAny: any Kysely instance can execute compiled SQL.
  executor?: Kysely<any>,
) => Promise<QueryResult<Row>>;

/**
 * `build` receives `param(name)`, which stands for the named parameter wherever a value goes; every
 * other value is compiled in as a constant.
 */
export function prepareQuery<Params extends Record<string, unknown>, Row>(
  { db, keepPrepared, batchedRead }: ServiceDatabase,
  build: (param: <Name extends keyof Params & string>(name: Name) => Params[Name]) => Compilable<Row>,
): PreparedQuery<Params, Row> {
  const compiled = build((name) => `${PLACEHOLDER}${name}` as Params[typeof name]).compile();
  keepPrepared(compiled.sql);
  const slots = compiled.parameters.map((value) =>
    typeof value === 'string' && value.startsWith(PLACEHOLDER)
      ? { name: value.slice(PLACEHOLDER.length) }
      : { name: undefined, value },
  );
  // A read-only SELECT on SQLite shares its read transaction with the turn's other reads, unless it
  // runs in a transaction of its own (database.ts, createReadBatcher).
  const read = batchedRead(compiled.sql);
  return (params, executor = db) => {
    const parameters = slots.map((slot) => (slot.name === undefined ? slot.value : params[slot.name]));
    if (read && executor === db) return read(parameters).then((rows) => ({ rows: rows as Row[] }));
    const query: CompiledQuery<Row> = { ...compiled, parameters };
    return executor.executeQuery(query);
  };
}
