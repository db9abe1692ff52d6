/**
 * The CLI as a child process: `keys` commands, `serve` printing its URL as a JSON log line,
 * `kill -9` in the middle of a write load (every create answered 200 must survive, and the database
 * must pass integrity_check), a graceful SIGTERM that lets an in-flight request finish, the HTTP
 * limit flags, and no credentials of a postgres:// URL in anything it prints.
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { once } from 'node:events';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import SqliteDatabase from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { getOrCreateResponseSchema } from '../user-group-api/contract';
import { createApiKey, listApiKeys } from './api-keys';
import {
  call,
  createPostgresBackend,
  makeTempDir,
  openRawConnection,
  startTestService,
  TEST_ENCRYPTION_KEY,
} from './test-support';

// Each test waits on child processes that start Node and compile the CLI (tsx): about 3 s a start
// alone, several times that beside the suite's other workers on a busy machine.
vi.setConfig({ testTimeout: 120_000 });

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
const cliArgs = ['--import', 'tsx', 'lib/user-group-service/cli.ts'];
const run = promisify(execFile);
// The child must find its own key file, not the test key.
const childEnv = { ...process.env, SERVICE_ENCRYPTION_KEY: '', LOG_LEVEL: 'info' };

const cli = (...args: string[]) =>
  run(process.execPath, [...cliArgs, ...args], { cwd: repoRoot, env: childEnv });

let dir: string;
let removeDir: () => Promise<void>;
let database: string;
let key: string;
const children: ChildProcess[] = [];
const postgres = await createPostgresBackend();

beforeAll(async () => {
  ({ dir, remove: removeDir } = await makeTempDir());
  database = path.join(dir, 'nested', 'service.sqlite');
});

afterAll(async () => {
  for (const child of children)
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  await removeDir();
  await postgres?.dispose();
});

/** Starts `serve` (extra arguments win over the defaults) and resolves once it logged `listening`. */
/** Resolves once `text` has come out of `stream` (what came before included): an event, not a wait. */
function streamIncludes(stream: NodeJS.ReadableStream | null, text: string): Promise<void> {
  return new Promise((resolve, reject) => {
    let seen = '';
    const onData = (chunk: Buffer) => {
      seen += chunk.toString('latin1');
      if (!seen.includes(text)) return;
      stream?.off('data', onData);
      resolve();
    };
    if (!stream) return reject(new Error('no stream'));
    stream.on('data', onData);
  });
}

async function serve(
  extraArgs: string[] = [],
  env: NodeJS.ProcessEnv = childEnv,
): Promise<{
  child: ChildProcess;
  url: string;
  exited: Promise<number | null>;
  output: () => string;
}> {
  const child = spawn(
    process.execPath,
    [
      ...cliArgs,
      'serve',
      '--port',
      '0',
      '--database',
      database,
      '--no-rate-limit',
      '--log-level',
      'info',
      ...extraArgs,
    ],
    { cwd: repoRoot, env, stdio: ['ignore', 'pipe', 'inherit'] },
  );
  children.push(child);
  const exited = once(child, 'exit').then(([code]) => code as number | null);
  let buffered = '';
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout?.on('data', (chunk: Buffer) => {
      buffered += chunk.toString('utf8');
      for (const line of buffered.split('\n')) {
        if (line.includes('"msg":"listening"')) resolve(JSON.parse(line).url);
      }
    });
    child.once('exit', (code) => reject(new Error(`serve exited early with ${code}`)));
  });
  return { child, url, exited, output: () => buffered };
}

describe('keys', () => {
  it('create prints the new key alone on its last line, list shows it, revoke revokes it', async () => {
    const created = await cli(
      'keys',
      'create',
      '--environment',
      'Customer',
      '--name',
      'ci',
      '--database',
      database,
    );
    const lastLine = created.stdout.trimEnd().split('\n').at(-1) ?? '';
    expect(lastLine).toMatch(/^ugs_[A-Za-z0-9_-]{43}$/);
    key = lastLine;

    const other = await createApiKey({ database, environment: 'Testing' });
    const listed = await cli('keys', 'list', '--json', '--database', database);
    const records = JSON.parse(listed.stdout) as Array<{ id: string; environment: string }>;
    expect(records.map((record) => record.environment)).toEqual(['Customer', 'Testing']);
    expect(listed.stdout).not.toContain('ugs_');

    const revoked = await cli('keys', 'revoke', other.id, '--database', database);
    expect(revoked.stdout).toContain(`revoked ${other.id}`);
    expect((await listApiKeys({ database })).find((record) => record.id === other.id)?.revokedAt).toEqual(
      expect.any(String),
    );
  });

  it('answers --help', async () => {
    const help = await cli('serve', '--help');
    expect(help.stdout).toContain('--database');
    expect(help.stdout).toContain('--no-rate-limit');
    for (const flag of [
      '--headers-timeout-ms',
      '--request-timeout-ms',
      '--keep-alive-timeout-ms',
      '--max-connections',
    ])
      expect(help.stdout).toContain(flag);
  });
});

describe('serve', () => {
  it('survives kill -9 during a write load: every create answered 200 is there, integrity_check is ok', async () => {
    const server = await serve();
    const answered = new Map<string, { token: string; teamId: number }>();
    let sent = 0;
    let stopped = false;
    let enoughAnswered: () => void = () => undefined;
    const twoHundredAnswered = new Promise<void>((resolve) => {
      enoughAnswered = resolve;
    });
    const worker = async (workerId: number) => {
      while (!stopped) {
        const id = `crash-${workerId}-${sent++}`;
        try {
          const answer = await call(
            server.url,
            'GET',
            { user_group_id: id, properties: { n: sent } },
            { key },
          );
          if (answer.status === 200) {
            const group = getOrCreateResponseSchema.parse(answer.json).user_group;
            answered.set(id, { token: group.token, teamId: group.team_id });
            if (answered.size >= 200) enoughAnswered();
          }
        } catch {
          return; // the connection died with the server
        }
      }
    };
    const workers = Array.from({ length: 16 }, (_, index) => worker(index));
    await twoHundredAnswered;
    server.child.kill('SIGKILL');
    expect(await server.exited).toBeNull();
    stopped = true;
    await Promise.all(workers);

    const sqlite = new SqliteDatabase(database);
    try {
      expect(sqlite.pragma('integrity_check', { simple: true })).toBe('ok');
      const stored = new Map(
        (
          sqlite.prepare('select provided_id, team_id from user_groups').all() as Array<{
            provided_id: string;
            team_id: number;
          }>
        ).map((row) => [row.provided_id, row.team_id]),
      );
      for (const [id, { teamId }] of answered) expect(stored.get(id), id).toBe(teamId);
    } finally {
      sqlite.close();
    }

    // A fresh server on the same file (same generated key file) returns the very same tokens.
    const restarted = await startTestService(database, { encryptionKey: undefined });
    try {
      for (const [id, { token }] of [...answered].slice(0, 50)) {
        const answer = await call(restarted.url, 'GET', { user_group_id: id }, { key });
        expect(answer.json).toMatchObject({ new_user_group: false, user_group: { token } });
      }
    } finally {
      await restarted.close();
    }
  });

  it('on SIGTERM finishes the in-flight request, closes the database and exits 0', async () => {
    const server = await serve();
    const first = '{"user_group_id":"in-flight",';
    const rest = '"name":"finished after SIGTERM"}';
    const raw = await openRawConnection(server.url);
    raw.socket.write(
      [
        'GET /api/user HTTP/1.1',
        `Host: ${new URL(server.url).host}`,
        `Authorization: Token ${key}`,
        'Content-Type: application/json',
        `Content-Length: ${Buffer.byteLength(first + rest)}`,
        // Answered "100 Continue" once the server has read the head: the request is then in flight.
        'Expect: 100-continue',
        'Connection: close',
        '',
        first,
      ].join('\r\n'),
    );
    await streamIncludes(raw.socket, 'HTTP/1.1 100 Continue');
    server.child.kill('SIGTERM');
    await streamIncludes(server.child.stdout, '"msg":"shutting down"');
    raw.socket.write(rest);
    const answer = await once(raw.socket, 'close').then(() => raw.received());
    expect(answer).toMatch(/HTTP\/1\.1 200 /);
    expect(answer).toContain('"name":"finished after SIGTERM"');
    expect(await server.exited).toBe(0);
    expect(server.output()).toContain('"msg":"closed"');
  });

  it('--headers-timeout-ms: a connection whose request head is late is answered 408 and closed', async () => {
    const server = await serve(['--headers-timeout-ms', '300']);
    const slow = await openRawConnection(server.url);
    slow.socket.write('GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n');
    expect(await slow.closedWithin(3_000)).toMatch(/^HTTP\/1\.1 408 /);
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
  });
});

describe('credentials in a postgres:// URL', () => {
  it('are not in the error of a command that cannot reach the database', async () => {
    const url = 'postgres://someuser:s3cret@127.0.0.1:1/test';
    const failed = await cli('keys', 'list', '--database', url).then(
      () => expect.unreachable('keys list succeeded without a database'),
      (error: { stdout: string; stderr: string }) => error,
    );
    expect(failed.stderr).toContain('ECONNREFUSED');
    for (const printed of [failed.stdout, failed.stderr]) {
      expect(printed).not.toContain('s3cret');
      expect(printed).not.toContain('someuser');
    }
  });

  it.skipIf(!postgres)('are not in the log of serve, from listening to closed', async () => {
    const url = new URL(postgres?.database ?? '');
    url.password = 's3cret';
    const server = await serve(['--database', url.toString()], {
      ...childEnv,
      SERVICE_ENCRYPTION_KEY: TEST_ENCRYPTION_KEY,
    });
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
    const output = server.output();
    const listening = JSON.parse(output.split('\n').find((line) => line.includes('"msg":"listening"')) ?? '');
    expect(listening.database).toBe(`postgres://***@${url.host}${url.pathname}`);
    expect(output).toContain('"msg":"closed"');
    expect(output).not.toContain('s3cret');
    expect(output).not.toContain(`//${url.username}`);
  });
});
