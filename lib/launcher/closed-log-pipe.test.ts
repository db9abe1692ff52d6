import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';

/** A child that writes 200 log lines after its parent has closed both of its log pipes. */
async function exitCodeWithClosedPipes(keep: boolean): Promise<number | null> {
  const script = `
    ${keep ? "const { keepServingWithoutLogPipe } = await import('./lib/launcher/closed-log-pipe.ts'); keepServingWithoutLogPipe();" : ''}
    for (let i = 0; i < 200; i++) {
      await new Promise((resolve) => process.stderr.write('a log line\\n', resolve));
      await new Promise((resolve) => process.stdout.write('a log line\\n', resolve));
    }`;
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  // The reader goes away before the child writes anything.
  child.stdout.destroy();
  child.stderr.destroy();
  return new Promise((resolve) => child.once('exit', resolve));
}

describe('a console whose log pipe has closed', () => {
  it('keeps going with its lines lost, where an EPIPE was an uncaught exception', async () => {
    expect(await exitCodeWithClosedPipes(false)).not.toBe(0);
    expect(await exitCodeWithClosedPipes(true)).toBe(0);
  }, 30_000);
});
