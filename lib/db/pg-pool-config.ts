/**
 * A pg pool's configuration: DATABASE_URL, with the console's own settings on top. Handed a
 * connection string, pg lets the string's parameters override the configuration beside it, so a URL
 * carrying `options=-c search_path=…` (a common way to name a schema) silently dropped the read
 * pool's read-only transactions, its plan settings and `jit=off`, and one carrying
 * `statement_timeout=0` lifted the reads' time limit. Here the URL loses every parameter the console
 * sets itself (and `connectionString`, which pg would parse again on top), its own `-c` settings are
 * kept with the console's after them (PostgreSQL applies them in order, so the later wins), and pg
 * still reads the rest of the URL itself, for every connection, as it would without the console
 * (`ssl=no-verify`, `sslmode`, certificate files, a socket's path).
 */
import type pg from 'pg';

export function poolConfig(url: string, ours: pg.PoolConfig & { options: string }): pg.PoolConfig {
  // pg-connection-string reads the query as a URL's search parameters (`+` a space, %-escapes).
  const queryAt = url.indexOf('?');
  const query = new URLSearchParams(queryAt < 0 ? '' : url.slice(queryAt + 1));
  const theirOptions = query.get('options');
  for (const taken of ['connectionString', 'options', ...Object.keys(ours)]) query.delete(taken);
  const rest = query.toString();
  const base = queryAt < 0 ? url : url.slice(0, queryAt);
  return {
    ...ours,
    connectionString: rest ? `${base}?${rest}` : base,
    options: [theirOptions, ours.options].filter(Boolean).join(' '),
  };
}
