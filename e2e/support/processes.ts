import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { promisify } from 'node:util';
import { adminCredentials } from './auth-states';

const execFileAsync = promisify(execFile);
const tsx = ['--import', 'tsx'];

/** Runs the service CLI to completion and returns its stdout. */
export async function serviceCli(args: string[]): Promise<string> {
  const { stdout } = await execFileAsync(process.execPath, [
    ...tsx,
    'lib/user-group-service/cli.ts',
    ...args,
  ]);
  return stdout;
}

/**
 * Starts a long-running node process (the service CLI or the launcher) in its own process group.
 * A console started this way has the run's first admin (adminCredentials in auth-states.ts), so a
 * spec signs in to it with `signInThroughPage(page, adminCredentials, { origin })`.
 */
export function startNode(
  script: string,
  args: string[],
  env: Record<string, string | undefined> = {},
): ChildProcess {
  return spawn(process.execPath, [...tsx, script, ...args], {
    env: {
      ...process.env,
      CONSOLE_ADMIN_EMAIL: adminCredentials.email,
      CONSOLE_ADMIN_PASSWORD: adminCredentials.password,
      CONSOLE_SIGN_IN_RATE_LIMIT: 'off',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
}

/**
 * What a process started by startNode has printed so far (stdout and stderr). Reading also keeps
 * its pipes flowing: a pipe nobody reads fills up and stalls the process's logging.
 */
export function outputOf(child: ChildProcess): () => string {
  let text = '';
  const append = (chunk: Buffer) => {
    text += chunk.toString('utf8');
  };
  child.stdout?.on('data', append);
  child.stderr?.on('data', append);
  return () => text;
}

/** Stops a process group started by startNode and waits for its leader to exit. */
export async function stopProcess(child: ChildProcess, signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  try {
    process.kill(-child.pid, signal);
  } catch {
    return; // already gone
  }
  await exited;
}

/** Polls a URL until it answers at all (any status), or fails after the timeout. */
export async function waitForHttp(url: string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      await fetch(url, { redirect: 'manual', signal: AbortSignal.timeout(2_000) });
      return;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
  throw new Error(`${url} did not answer within ${timeoutMs} ms`);
}
