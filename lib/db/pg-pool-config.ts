/**
 * A pg pool's configuration: DATABASE_URL, with the console's own settings on top. Handed a
 * connection string, pg lets the string's parameters override the configuration beside it, so a URL
 * carrying `options=-c search_path=…` (a common way to name a schema) silently dropped the read
 * pool's read-only transactions, its plan settings and `jit=off`, and one carrying
 * `statement_timeout=0` lifted the reads' time limit. Here the URL loses every parameter the console
 * sets itself (and `connectionString`, which pg would parse again on top), its own `-c` settings are
 * kept with the console's after them (PostgreSQL applies them in order, so the later wins), and pg
 * still reads the rest of the URL itself, byte for byte, for every connection, as it would without
 * the console (`ssl=no-verify`, `sslmode`, certificate files, a socket's path). A URL without
 * options takes PGOPTIONS, as pg does: the console's options beside it had silently shadowed it.
 */
import type pg from 'pg';

/**
 * What in a DATABASE_URL would let PostgreSQL or pg read settings the console did not see, or null.
 * Asked at start (lib/config/storage.ts, a clear message) and again by the pools.
 * - A NUL byte: pg sends each startup value NUL-terminated without looking inside it, so PostgreSQL
 *   reads what follows a NUL in a user, database, application name or option as settings of their
 *   own, applied after the console's: `?application_name=x%00jit%00on` turned JIT back on.
 * - A control character: pg reads the URL through WHATWG's parser, which drops every tab and line
 *   break in it, and every control character at its end. Written inside or after a name
 *   (`opt<TAB>ions=`, `options<U+0001>`), one made a parameter this module did not recognise and pg
 *   did, and the URL's `options` or `statement_timeout` replaced the console's own.
 */
export function unsafeInUrl(url: string): string | null {
  if (/\0|%00/i.test(url))
    return 'a NUL byte (%00): PostgreSQL would read what follows it as settings, over the console’s';
  if (/\p{Cc}/u.test(url))
    return 'a control character (a tab, a line break): pg reads the URL without them, so a parameter written with one would slip past the console’s own settings';
  return null;
}

export function poolConfig(
  url: string,
  ours: pg.PoolConfig & { options: string },
  environment: Record<string, string | undefined> = process.env,
): pg.PoolConfig {
  const unsafe = unsafeInUrl(url);
  if (unsafe) throw new Error(`DATABASE_URL holds ${unsafe}`);
  const { connectionString, theirOptions } = withoutOurParameters(url, ours);
  return {
    ...ours,
    connectionString,
    // pg takes PGOPTIONS only where the configuration has no options (an empty one included).
    options: [theirOptions || environment.PGOPTIONS, ours.options].filter(Boolean).join(' '),
  };
}

/** The URL without the parameters the console sets itself, and the last `options` it held. */
function withoutOurParameters(
  url: string,
  ours: pg.PoolConfig,
): { connectionString: string; theirOptions?: string } {
  // A socket's path and a database name (`/var/run/postgresql test`): pg reads no parameters there.
  if (url.startsWith('/')) return { connectionString: url };
  // pg ignores a fragment; its `?` does not begin parameters.
  const fragmentAt = url.indexOf('#');
  const head = fragmentAt < 0 ? url : url.slice(0, fragmentAt);
  const queryAt = head.indexOf('?');
  if (queryAt < 0) return { connectionString: head };
  const taken = new Set(['connectionString', 'options', ...Object.keys(ours)]);
  let theirOptions: string | undefined;
  const kept = head
    .slice(queryAt + 1)
    .split('&')
    .filter((parameter) => {
      // Decoded as pg-connection-string decodes it (a URL's search parameters: `+` a space,
      // %-escapes), to decide only: what is kept goes on as it was written.
      const [name, value] = [...new URLSearchParams(parameter)][0] ?? [];
      if (name === 'options') theirOptions = value; // pg keeps the last.
      return name === undefined || !taken.has(name);
    });
  const rest = kept.filter(Boolean).join('&');
  return {
    connectionString: rest ? `${head.slice(0, queryAt)}?${rest}` : head.slice(0, queryAt),
    theirOptions,
  };
}
