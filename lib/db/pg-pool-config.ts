/**
 * A pg pool's configuration: DATABASE_URL's, with the console's own settings on top. Handed a
 * connection string, pg lets the string's parameters override the configuration beside it, so a URL
 * carrying `options=-c search_path=…` (a common way to name a schema) silently dropped the read
 * pool's read-only transactions, its plan settings and `jit=off`, and one carrying
 * `statement_timeout=0` lifted the reads' time limit. Here the URL's own `-c` settings are kept and
 * the console's follow them (PostgreSQL applies them in order, so the later wins); every other
 * setting given here wins over the URL's.
 */
import type pg from 'pg';
import { parseIntoClientConfig } from 'pg-connection-string';

export function poolConfig(url: string, ours: pg.PoolConfig & { options: string }): pg.PoolConfig {
  // The parser pg itself applies to a connection string (host, port, ssl, application_name…).
  const theirs = parseIntoClientConfig(url);
  return { ...theirs, ...ours, options: [theirs.options, ours.options].filter(Boolean).join(' ') };
}
