import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import os from 'node:os';
import { createInterface } from 'node:readline';

/**
 * The servers measured get their own core, the load generator (this process: autocannon) the
 * other. Left to the scheduler, the two shared the 2 cores as it pleased from run to run, and that
 * share, more than the code, set each figure. Where `taskset` is missing, or there is one core,
 * nothing is pinned and the bench says so. `BENCH_PIN=off` turns it off.
 */
export const pinning = ((): { servers: string; bench: string } | null => {
  if (process.env.BENCH_PIN === 'off' || os.cpus().length < 2) return null;
  try {
    // Every thread of this process (libuv's and V8's too), not only the main one.
    execFileSync('taskset', ['--all-tasks', '--pid', '--cpu-list', '0', String(process.pid)], {
      stdio: 'ignore',
    });
    return { servers: '1', bench: '0' };
  } catch {
    return null;
  }
})();

export interface Started {
  url: string;
  child: ChildProcess;
  stop(): Promise<void>;
}

/**
 * Where a server runs: on the servers' core (the sections that measure CPU per request against a
 * load generator), or on every core, as a deployment runs (the scale section's two consoles: on one
 * core, each one's work beside its answers took the core from the other's).
 */
export type Cores = 'servers' | 'every';

/** `command` on `cores`: this process may be pinned to one core, and its children with it. */
export function onCores(cores: Cores, command: [string, ...string[]]): [string, ...string[]] {
  if (!pinning) return command;
  // taskset execs the command: the child's pid is the server's.
  return [
    'taskset',
    '--cpu-list',
    cores === 'servers' ? pinning.servers : `0-${os.cpus().length - 1}`,
    ...command,
  ];
}

/** Where `onCores(cores, …)` runs a server, as the run prints it. */
export function coresSaid(cores: Cores): string {
  if (!pinning) return 'cores the scheduler chooses';
  const where = cores === 'servers' ? `CPU ${pinning.servers}` : 'every core';
  return `${where} (this process on CPU ${pinning.bench})`;
}

/** The command that runs a server script on `cores` (the servers' core unless told): TypeScript under tsx, or compiled. */
export function serverCommand(
  script: string,
  args: string[] = [],
  { compiled = false, cores = 'servers' }: { compiled?: boolean; cores?: Cores } = {},
): [string, ...string[]] {
  const command: [string, ...string[]] = compiled
    ? [process.execPath, script, ...args]
    : [process.execPath, '--import', 'tsx', script, ...args];
  return onCores(cores, command);
}

/** Starts a TypeScript server script in its own process; it prints {"url": …} on one stdout line. */
export async function startServer(
  script: string,
  args: string[] = [],
  env: Record<string, string> = {},
  cores: Cores = 'servers',
): Promise<Started> {
  const [command, ...commandArgs] = serverCommand(script, args, { cores });
  const child = spawn(command, commandArgs, {
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, ...env },
  });
  const url = await new Promise<string>((resolve, reject) => {
    const lines = createInterface({ input: child.stdout as NodeJS.ReadableStream });
    lines.on('line', (line) => {
      try {
        const parsed = JSON.parse(line) as { url?: string };
        if (parsed.url) resolve(parsed.url);
      } catch {
        // not the line we wait for
      }
    });
    child.once('exit', (code) => reject(new Error(`${script} exited with ${code} before listening`)));
  });
  return {
    url,
    child,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

/** The process a started server runs in, for bench/cpu.ts. */
export const pidsOf = (server: Started) => () => (server.child.pid ? [server.child.pid] : []);
