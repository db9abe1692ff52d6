/**
 * A console as deployed, for the bench: the compiled launcher (serving the existing build in its
 * own process) pointed at the built-in service in a process of its own (rate limiting off), with a
 * signed-in admin's cookie.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createApiKey } from '../lib/user-group-service';
import { buildServer } from '../scripts/server-build.mjs';
import { type Cores, type Started, serverCommand, startServer } from './processes';
import { staleBuild, staleServerBuild } from './stale-build';

export interface BenchConsole {
  /** Where the bench sends requests. */
  base: string;
  /** The Origin a browser on the console sends; one of the trusted origins (lib/config). */
  origin: string;
  /** The signed-in admin's session cookie(s), as a Cookie header. */
  cookie: string;
  admin: { email: string; password: string };
  /** The service the console calls, for the bench to call directly as well. */
  service: { url: string; key: string };
  /** The launcher (serving the console) and the service: the processes whose CPU a request costs. */
  pids: number[];
  stop(): Promise<void>;
}

const admin = { email: 'bench@console.localhost', password: 'bench-admin-password-5Tq8' };

/**
 * `env` is added to the console's (a DATA_DIR and DATABASE_URL of the caller's: the scale bench's
 * loaded databases); `prepare` runs with the console's whole environment once its service answers
 * and before the console starts (the scale bench migrates and loads its database then).
 */
export interface BenchConsoleOptions {
  env?: Record<string, string>;
  prepare?: (env: NodeJS.ProcessEnv) => Promise<void>;
  /** The console and its service: on the servers' core (default) or every core (bench/processes.ts). */
  cores?: Cores;
}

export async function startBenchConsole(
  port = Number(process.env.BENCH_CONSOLE_PORT ?? 3411),
  { env = {}, prepare, cores = 'servers' }: BenchConsoleOptions = {},
) {
  await ensureBuild();
  const dir = await mkdtemp(path.join(tmpdir(), 'ugc-bench-'));
  let service: Started | undefined;
  let launcher: ChildProcess | undefined;
  const stop = async () => {
    if (launcher) await stopLauncher(launcher);
    await service?.stop();
    await rm(dir, { recursive: true, force: true });
  };
  try {
    const database = path.join(dir, 'service.sqlite');
    const { key } = await createApiKey({ database, environment: 'Customer', name: 'console-bench' });
    service = await startServer('bench/servers/user-group-service.ts', [database], {}, cores);
    // The launcher as deployed: compiled, under plain node (the console is served in its process).
    const consoleEnv: NodeJS.ProcessEnv = {
      ...process.env,
      USER_GROUP_API_URL: service.url,
      USER_GROUP_API_KEY: key,
      PORT: String(port),
      HOSTNAME: '127.0.0.1',
      DATA_DIR: path.join(dir, 'console'),
      CONSOLE_URL: `http://localhost:${port}`,
      CONSOLE_ADMIN_EMAIL: admin.email,
      CONSOLE_ADMIN_PASSWORD: admin.password,
      CONSOLE_SIGN_IN_RATE_LIMIT: 'off',
      LOG_LEVEL: 'warn',
      ...env,
    };
    await prepare?.(consoleEnv);
    const [command, ...args] = serverCommand('dist/launcher/start.js', [], { compiled: true, cores });
    launcher = spawn(command, args, {
      // Own process group, so that whatever it started can still be killed with it.
      detached: true,
      stdio: ['ignore', 'ignore', 'inherit'],
      env: consoleEnv,
    });
    const base = `http://127.0.0.1:${port}`;
    const origin = `http://localhost:${port}`;
    await waitUntilAnswering(`${base}/api/health`, launcher);

    const signIn = await fetch(`${base}/api/auth/sign-in/email`, {
      method: 'POST',
      headers: { origin, 'content-type': 'application/json' },
      body: JSON.stringify(admin),
    });
    if (!signIn.ok) throw new Error(`sign-in answered ${signIn.status}: ${await signIn.text()}`);
    const cookie = signIn.headers
      .getSetCookie()
      .map((line) => line.split(';')[0])
      .join('; ');
    const pids = [launcher.pid, service.child.pid].filter((pid): pid is number => pid !== undefined);
    return {
      base,
      origin,
      cookie,
      admin,
      service: { url: service.url, key },
      pids,
      stop,
    } satisfies BenchConsole;
  } catch (error) {
    await stop();
    throw error;
  }
}

/**
 * A figure of a stale build measures code nobody will run: when a source file is newer than the
 * build (or there is none), the bench builds first, and says so. Both builds: the console's and the
 * compiled server code (scripts/server-build.mjs) the launcher runs.
 */
export async function ensureBuild(): Promise<void> {
  const stale = staleBuild();
  if (stale) {
    console.info(`${stale}: running next build first`);
    const build = spawn(process.execPath, ['node_modules/next/dist/bin/next', 'build'], { stdio: 'inherit' });
    const code = await new Promise<number | null>((resolve) => build.once('exit', resolve));
    if (code !== 0) throw new Error(`next build exited with ${code}`);
    const still = staleBuild();
    if (still) throw new Error(`${still} even after next build`);
  }
  const staleServer = staleServerBuild();
  if (staleServer) {
    console.info(`${staleServer}: compiling the server code first`);
    await buildServer();
  }
}

async function waitUntilAnswering(url: string, child: ChildProcess, timeoutMs = 120_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the console launcher exited with ${child.exitCode}`);
    const ok = await fetch(url).then(
      (response) => response.ok,
      () => false,
    );
    if (ok) return;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`the console did not answer ${url} within ${timeoutMs / 1000} s`);
}

/** SIGTERM lets the launcher stop the console and close; the whole group is killed if that hangs. */
async function stopLauncher(launcher: ChildProcess): Promise<void> {
  if (launcher.exitCode !== null || launcher.signalCode !== null || !launcher.pid) return;
  const pid = launcher.pid;
  const exited = new Promise<void>((resolve) => launcher.once('exit', () => resolve()));
  launcher.kill('SIGTERM');
  const timer = setTimeout(() => {
    try {
      process.kill(-pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }, 10_000);
  await exited;
  clearTimeout(timer);
}
