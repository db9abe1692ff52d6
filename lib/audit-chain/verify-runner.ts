/**
 * The console's Verify, kept from stopping the console: one verification at a time (a second press
 * while one runs joins it), run in a child process (`npm run audit -- verify --resume`, the CLI
 * compiled into dist/, or through tsx where it is not), so that hashing millions of entries never
 * holds the server's event loop; and incremental: each run carries on from the last seal the one
 * before verified, so a press costs what was sealed since. A full verification is the CLI's.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { type ChainReport, chainReportSchema } from './contract';
import type { VerifiedPoint } from './verify';

export interface Verified {
  report: ChainReport;
  point: VerifiedPoint | null;
}

export interface VerifyRunner {
  verify(): Promise<ChainReport>;
}

/**
 * `run` verifies from a point (null: from the first kept seal); `sealing` is the sealer's refusal,
 * if any: a console that refuses to seal answers every Verify with why.
 */
export function createVerifyRunner({
  run,
  sealing,
}: {
  run: (from: VerifiedPoint | null) => Promise<Verified>;
  sealing: () => string | null;
}): VerifyRunner {
  let verified: VerifiedPoint | null = null;
  let running: Promise<ChainReport> | null = null;
  const once = async (): Promise<ChainReport> => {
    try {
      const { report, point } = await run(verified);
      // A run that found a problem leaves the point where it was: the next press reports it again.
      if (point) verified = point;
      const refused = sealing();
      return { ...report, ok: report.ok && refused === null, sealing: refused };
    } finally {
      running = null;
    }
  };
  return {
    verify() {
      running ??= once();
      return running;
    },
  };
}

/**
 * How to start the CLI: in production the compiled one (`npm start` compiles dist/ when stale, and a
 * deployment runs it without tsx); elsewhere (next dev, tests) its source through tsx, never a
 * dist/ left from an older build.
 */
function cliCommand(root: string): string[] {
  return process.env.NODE_ENV === 'production'
    ? [path.join(root, 'dist', 'audit', 'cli.js')]
    : ['--import', 'tsx', path.join(root, 'lib', 'audit-chain', 'cli.ts')];
}

/**
 * One verification in a child process with the console's environment (its database, its key),
 * against the checkpoint file. Exit 0 and 1 both carry a report; anything else is a failure.
 */
export function verifyInChild({
  anchorFile,
  from,
  root = process.cwd(),
  command = cliCommand(root),
  env = process.env,
}: {
  anchorFile: string | null;
  from: VerifiedPoint | null;
  root?: string;
  command?: string[];
  env?: NodeJS.ProcessEnv;
}): Promise<Verified> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [
        ...command,
        'verify',
        '--resume',
        '--anchor',
        anchorFile && existsSync(anchorFile) ? anchorFile : 'none',
      ],
      { cwd: root, env, stdio: ['pipe', 'pipe', 'pipe'] },
    );
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => err.push(chunk));
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0 && code !== 1) {
        // The CLI's own words (a URL's credentials already redacted), for the log, not the admin.
        reject(
          new Error(`verify exited ${code}: ${Buffer.concat(err).toString('utf8').trim().slice(0, 500)}`),
        );
        return;
      }
      try {
        const parsed = JSON.parse(Buffer.concat(out).toString('utf8')) as Verified;
        resolve({ report: chainReportSchema.parse(parsed.report), point: parsed.point });
      } catch (error) {
        reject(error);
      }
    });
    child.stdin.end(JSON.stringify(from));
  });
}
