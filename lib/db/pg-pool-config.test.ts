/**
 * DATABASE_URL against the console's own settings: what a pool built from it connects with, read
 * from pg's own parse of its configuration (the Client's connection parameters), next to what pg
 * makes of the URL alone. No connection is made.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { poolConfig } from './pg-pool-config';

const OURS = { statement_timeout: 5_000, query_timeout: undefined, options: '-c jit=off' };

interface Parameters {
  host: string;
  port: number;
  user: string;
  password?: string;
  database: string;
  ssl: unknown;
  options?: string;
  application_name?: string;
  statement_timeout?: number | false;
  query_timeout?: number | false;
}
const parametersOf = (config: pg.ClientConfig): Parameters =>
  (new pg.Client(config) as unknown as { connectionParameters: Parameters }).connectionParameters;

const dir = mkdtempSync(path.join(tmpdir(), 'pg-pool-config-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
afterEach(() => vi.unstubAllEnvs());

describe('a pool configuration from DATABASE_URL', () => {
  it('drops what the console sets itself, however the URL says it, and keeps the URL’s last options before its own', () => {
    const nested = encodeURIComponent('postgres://h/db?statement_timeout=0&options=-c%20jit%3Don');
    for (const url of [
      'postgres://u@h/db?statement_timeout=0&query_timeout=1&options=-c%20search_path%3Da&options=-c+search_path%3Db',
      `postgres://u@h/db?connectionString=${nested}&options=-c%20search_path%3Db`,
      'postgres://u@h/db?statement%5Ftimeout=0&options=-c%20search_path%3Db#?statement_timeout=0',
    ]) {
      const parameters = parametersOf(poolConfig(url, OURS));
      expect(parameters).toMatchObject({ host: 'h', database: 'db', statement_timeout: 5_000 });
      expect(parameters.query_timeout).toBeFalsy();
      expect(parameters.options).toBe('-c search_path=b -c jit=off');
    }
  });

  it('leaves every other parameter to pg, read as from the URL alone', () => {
    const ca = path.join(dir, 'ca.pem');
    writeFileSync(ca, 'not a real certificate');
    for (const url of [
      'postgresql://postgres:pa%20ss@/test?host=/var/run/postgresql',
      `postgres://u:100%25pw@h/db?sslrootcert=${ca}&application_name=a/b:c`,
      'postgres://u:p%40%3A%2F%3F%23@h:5433/db?ssl=no-verify#x',
      'postgres://u@[::1]:5433/db?sslmode=require&uselibpqcompat=true',
      'postgres://u@h/db?ssl=no-verify#frag',
      'socket:/var/run/postgresql?db=test&encoding=utf8',
      '/var/run/postgresql test',
    ]) {
      const alone = parametersOf({ connectionString: url });
      const pooled = parametersOf(poolConfig(url, OURS));
      for (const key of [
        'host',
        'port',
        'user',
        'password',
        'database',
        'ssl',
        'application_name',
      ] as const) {
        expect(pooled[key], `${key} of ${url}`).toEqual(alone[key]);
      }
    }
  });

  it('takes PGOPTIONS where the URL has no options, as pg does, with the console’s own after it', () => {
    vi.stubEnv('PGOPTIONS', '-c search_path=tenant -c jit=on');
    for (const url of [
      'postgres://u@h/db',
      'postgres://u@h/db?application_name=a',
      'postgres://u@h/db?options=',
      '/var/run/postgresql test',
      'postgres://u@h/db?options=-c%20search_path%3Db',
    ]) {
      // pg alone: the URL's options, else PGOPTIONS.
      const theirs = parametersOf({ connectionString: url }).options;
      expect(parametersOf(poolConfig(url, OURS)).options, url).toBe(`${theirs} -c jit=off`);
    }
    expect(parametersOf(poolConfig('postgres://u@h/db', OURS)).options).toBe(
      '-c search_path=tenant -c jit=on -c jit=off',
    );
  });

  it('refuses a control character anywhere: pg reads the URL without some, so a name written with one escaped the check', () => {
    for (const url of [
      'postgres://u@h/db?opt\tions=-c%20jit%3Don',
      'postgres://u@h/db?sslmode=disable&\noptions=-c%20jit%3Don',
      'postgres://u@h/db?statement\r_timeout=0',
      'postgres://u@h/db\n',
      // WHATWG drops control characters at the end: pg read `options=` (empty), and no options at all.
      'postgres://u@h/db?options\x01',
      'postgres://u@h/db?options\x01#f',
      'postgres://u@h/db?statement_timeout\x1f',
    ]) {
      expect(() => poolConfig(url, OURS), JSON.stringify(url)).toThrow(/control character/);
    }
  });

  it('leaves pg no way to read a setting of the console’s from the URL, over thousands of ways to write one', () => {
    // The console's parameter names written with characters that pg's parse (encodeURI where there
    // is a space or a stray %, then WHATWG's URL, which drops some) treats otherwise than a plain
    // reading. Whatever the pool config accepts, pg must end up with the console's options last and
    // its statement_timeout. A fixed seed: the same URLs every run.
    const tricky = [
      '\t',
      '\n',
      '\r',
      '\x01',
      '\x1f',
      '\x7f',
      ' ',
      '%',
      '%zz',
      '+',
      'é',
      '\u00a0',
      '\ufeff',
      '#',
      '?',
      '&',
      '=',
      '\\',
    ];
    const names = ['options', 'statement_timeout', 'connectionString'];
    const values = ['0', '-c%20jit%3Don', '', 'x%20y'];
    let seed = 12345;
    const next = (n: number) => {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      return seed % n;
    };
    const pick = <T>(from: readonly T[]) => from[next(from.length)] as T;
    const writtenName = () => {
      const name = [...pick(names)];
      for (let inserted = next(3); inserted > 0; inserted--)
        name.splice(next(name.length + 1), 0, pick(tricky));
      // A letter as an escape sometimes (`%6F` for o): pg and a plain reading decode them alike.
      if (next(4) === 0) {
        const at = next(name.length);
        name[at] = `%${(name[at] ?? 'x').charCodeAt(0).toString(16).toUpperCase()}`;
      }
      return name.join('');
    };
    let accepted = 0;
    for (let i = 0; i < 5_000; i++) {
      const parameters = Array.from({ length: 1 + next(3) }, () =>
        next(4) === 0 ? writtenName() : `${writtenName()}=${pick(values)}`,
      );
      const url = `postgres://u@h/db?${parameters.join('&')}${next(3) === 0 ? pick(tricky) : ''}${next(4) === 0 ? '#f' : ''}`;
      let config: pg.PoolConfig;
      try {
        config = poolConfig(url, OURS, {});
      } catch {
        continue; // refused: never connected
      }
      accepted++;
      const read = parametersOf(config);
      expect(read.options ?? '', JSON.stringify(url)).toMatch(/(^| )-c jit=off$/);
      expect(read.statement_timeout, JSON.stringify(url)).toBe(5_000);
    }
    expect(accepted).toBeGreaterThan(1_000);
  });

  it('refuses a NUL byte anywhere: PostgreSQL would read what follows it as settings', () => {
    for (const url of [
      'postgres://u@h/db?application_name=x%00jit%00on',
      'postgres://u@h/db%00jit%00on',
      'postgres://u@h/db?options=-c%20search_path%3Dpublic%00jit%00on',
    ]) {
      expect(() => poolConfig(url, OURS)).toThrow(/NUL byte/);
    }
  });
});
