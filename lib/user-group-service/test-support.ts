/**
 * Shared by the service's tests: temporary databases (SQLite in mkdtemp, PostgreSQL as a throwaway
 * `ugs_test_<random>` database), a quiet service, and an HTTP helper that can send GET bodies
 * (undici; Node's fetch refuses them).
 */
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import pg from 'pg';
import { pino } from 'pino';
import { request } from 'undici';
import { realClock } from '../clock';
import { createApiKey } from './api-keys';
import { type RunningUserGroupService, startUserGroupService, type UserGroupServiceOptions } from './server';

export const TEST_ENCRYPTION_KEY = 'a'.repeat(64);
const quietLogger = pino({ level: 'silent' });

export interface HttpAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  // biome-ignore lint/suspicious/noExplicitAny: tests read answers loosely, then parse them with the contract.
  json: any;
}

export interface CallOptions {
  key?: string;
  /** Sent as is instead of JSON.stringify(body). */
  rawBody?: string | Buffer | Readable;
  headers?: Record<string, string>;
}

export async function call(
  baseUrl: string,
  method: string,
  body?: unknown,
  options: CallOptions = {},
  urlPath = '/api/user',
): Promise<HttpAnswer> {
  const headers: Record<string, string> = { 'content-type': 'application/json', ...options.headers };
  if (options.key !== undefined) headers.authorization = `Token ${options.key}`;
  const payload = options.rawBody ?? (body === undefined ? undefined : JSON.stringify(body));
  const answer = await request(`${baseUrl}${urlPath}`, { method: method as 'GET', headers, body: payload });
  const text = await answer.body.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: answer.statusCode, headers: answer.headers, text, json };
}

export async function makeTempDir(): Promise<{ dir: string; remove: () => Promise<void> }> {
  const dir = await mkdtemp(path.join(tmpdir(), 'ugs-test-'));
  return { dir, remove: () => rm(dir, { recursive: true, force: true }) };
}

/** A backend the behaviour suite runs against: a fresh database and a way to drop it. */
export interface TestBackend {
  name: 'sqlite' | 'postgres';
  database: string;
  dispose(): Promise<void>;
}

export async function createSqliteBackend(): Promise<TestBackend> {
  const temp = await makeTempDir();
  return { name: 'sqlite', database: path.join(temp.dir, 'service.sqlite'), dispose: temp.remove };
}

const POSTGRES_ADMIN_URLS = [
  process.env.USER_GROUP_SERVICE_TEST_PG_URL,
  'postgres://postgres@127.0.0.1:5432/test',
  'postgres://root@127.0.0.1:5432/test',
].filter((url): url is string => Boolean(url));

/** A throwaway PostgreSQL database, or null (with a loud warning) when PostgreSQL is unreachable. */
export async function createPostgresBackend(): Promise<TestBackend | null> {
  for (const adminUrl of POSTGRES_ADMIN_URLS) {
    const admin = new pg.Client({ connectionString: adminUrl, connectionTimeoutMillis: 2_000 });
    try {
      await admin.connect();
    } catch {
      continue;
    }
    const name = `ugs_test_${randomBytes(6).toString('hex')}`;
    try {
      await admin.query(`create database ${name}`);
    } finally {
      await admin.end();
    }
    const url = new URL(adminUrl);
    url.pathname = `/${name}`;
    return {
      name: 'postgres',
      database: url.toString(),
      async dispose() {
        const dropper = new pg.Client({ connectionString: adminUrl });
        await dropper.connect();
        try {
          await dropper.query(`drop database if exists ${name} with (force)`);
        } finally {
          await dropper.end();
        }
      },
    };
  }
  console.warn(
    '\n!!! PostgreSQL is unreachable (tried postgres@ and root@127.0.0.1:5432/test): ' +
      'SKIPPING the PostgreSQL variant of the user group service tests !!!\n',
  );
  return null;
}

export async function startTestService(
  database: string,
  overrides: Partial<UserGroupServiceOptions> = {},
): Promise<RunningUserGroupService> {
  return startUserGroupService({
    port: 0,
    database,
    encryptionKey: TEST_ENCRYPTION_KEY,
    rateLimit: false,
    logger: quietLogger,
    // A test that moves time hands its own clock in `overrides`.
    clock: realClock,
    ...overrides,
  });
}

/** API keys for both environments on one database. */
export async function createTestKeys(database: string): Promise<{ customer: string; testing: string }> {
  const customer = await createApiKey({ database, environment: 'Customer', name: 'test customer' });
  const testing = await createApiKey({ database, environment: 'Testing', name: 'test testing' });
  return { customer: customer.key, testing: testing.key };
}

/** A raw TCP connection to the service, to send requests as slowly or partly as a test needs. */
export interface RawConnection {
  socket: Socket;
  /** Everything the server sent so far. */
  received(): string;
  /** What the server sent before it closed the connection, or null when it is still open after `ms`. */
  closedWithin(ms: number): Promise<string | null>;
}

export async function openRawConnection(baseUrl: string): Promise<RawConnection> {
  const { hostname, port } = new URL(baseUrl);
  const socket = connect(Number(port), hostname);
  let received = '';
  socket.on('data', (chunk: Buffer) => {
    received += chunk.toString('latin1');
  });
  // A connection the server refuses may be reset: an outcome the tests read, not a failure.
  socket.on('error', () => {});
  const closed = once(socket, 'close').then(() => received);
  await Promise.race([once(socket, 'connect'), closed]);
  return {
    socket,
    received: () => received,
    closedWithin: (ms) => {
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<null>((resolve) => {
        timer = setTimeout(() => resolve(null), ms);
      });
      return Promise.race([closed, timeout]).finally(() => clearTimeout(timer));
    },
  };
}
