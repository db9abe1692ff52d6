import { type ChildProcess, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';

export interface Started {
  url: string;
  child: ChildProcess;
  stop(): Promise<void>;
}

/** Starts a TypeScript server script in its own process; it prints {"url": …} on one stdout line. */
export async function startServer(
  script: string,
  args: string[] = [],
  env: Record<string, string> = {},
): Promise<Started> {
  const child = spawn(process.execPath, ['--import', 'tsx', script, ...args], {
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
