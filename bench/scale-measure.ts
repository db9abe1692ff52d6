/**
 * How the scale bench measures the two consoles: every request timed at both sizes in the same
 * round, the order alternating, so a slow spell of the machine falls on both; health and sign-in
 * at rest and while the four heaviest requests run at once; the console's resident memory over
 * three exports, and once it has idled.
 */
import { readFile } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import { request } from 'undici';
import type { BenchConsole } from './console-server';
import {
  checkRows,
  type Responsiveness,
  responsiveness,
  type ScaleFigure,
  scaleFigure,
} from './scale-figures';
import { IDENTIFY_MAX_ROUNDS, MEMORY_EXPORT, type ScaleRequest, timeRequest } from './scale-requests';

export interface Sized<T> {
  small: T;
  large: T;
}

const SIZES = ['small', 'large'] as const;
const MAX_FAILURES = 3;

/**
 * Each request once at each size (warm-up, rows checked), then `rounds` rounds of every request at
 * both sizes, the size asked first alternating from round to round and request to request.
 */
export async function measureSideBySide(
  consoles: Sized<BenchConsole>,
  requests: Sized<ScaleRequest[]>,
  rounds: number,
): Promise<ScaleFigure[]> {
  const samples = requests.small.map(() => ({ small: [] as number[], large: [] as number[] }));
  const rows = requests.small.map(() => ({ small: 0, large: 0 }));
  const failures = requests.small.map(() => ({ small: [] as string[], large: [] as string[] }));
  for (let round = -1; round < rounds; round++) {
    for (const [index, small] of requests.small.entries()) {
      if (small.method === 'POST' && round >= IDENTIFY_MAX_ROUNDS - 1) continue;
      const order = (round + index) % 2 === 0 ? SIZES : ([...SIZES].reverse() as (typeof SIZES)[number][]);
      for (const size of order) {
        const ask = size === 'small' ? small : requests.large[index];
        if (!ask) throw new Error(`no ${size} request ${index}`);
        // Refused three times (a read stopped at its 5 s limit, say): asked no more at this size.
        if ((failures[index]?.[size].length ?? 0) >= MAX_FAILURES) continue;
        const { ms, rows: held, failure } = await timeRequest(consoles[size], ask);
        if (failure) failures[index]?.[size].push(failure);
        else {
          checkRows(ask.name, size, held, ask.expect);
          rows[index] = { ...(rows[index] ?? { small: 0, large: 0 }), [size]: held };
        }
        if (round >= 0) samples[index]?.[size].push(ms);
      }
    }
  }
  return requests.small.map((ask, index) => {
    const measured = samples[index] ?? { small: [], large: [] };
    const held = rows[index] ?? { small: 0, large: 0 };
    const failed = failures[index] ?? { small: [], large: [] };
    return scaleFigure(
      ask.name,
      ask.goalP95Ms,
      { samples: measured.small, rows: held.small, failures: failed.small },
      { samples: measured.large, rows: held.large, failures: failed.large },
    );
  });
}

const HEALTH_SAMPLES = 40;
const HEALTH_GAP_MS = 50;
const SIGN_INS = 40;

export async function timed(run: () => Promise<void>): Promise<number> {
  const start = performance.now();
  await run();
  return performance.now() - start;
}

export async function health(target: BenchConsole): Promise<void> {
  const answer = await request(`${target.base}/api/health`);
  await answer.body.text();
  if (answer.statusCode !== 200) throw new Error(`/api/health answered ${answer.statusCode}`);
}

async function signIn(target: BenchConsole): Promise<void> {
  const answer = await request(`${target.base}/api/auth/sign-in/email`, {
    method: 'POST',
    headers: { origin: target.origin, 'content-type': 'application/json' },
    body: JSON.stringify(target.admin),
  });
  const text = await answer.body.text();
  if (answer.statusCode !== 200)
    throw new Error(`sign-in answered ${answer.statusCode}: ${text.slice(0, 200)}`);
}

/**
 * Sign-ins apart as people's are: each begins past the read gate's FLOOD_GAP_MS (250 ms) after the last,
 * so it meets a gate of its own. Back to back, 40 sign-ins are the flood the gate is bounded against
 * (it opens 50 ms in every 0.5 s whatever holds it), and those that meet it open wait with the heavy.
 */
const SIGN_IN_GAP_MS = 300;

interface Sample {
  health: number[];
  signIn: number[];
  signInApart: number[];
}

async function sample(target: BenchConsole): Promise<Sample> {
  const healthMs: number[] = [];
  for (let i = 0; i < HEALTH_SAMPLES; i++) {
    healthMs.push(await timed(() => health(target)));
    await sleep(HEALTH_GAP_MS);
  }
  const signInMs: number[] = [];
  for (let i = 0; i < SIGN_INS; i++) signInMs.push(await timed(() => signIn(target)));
  const apartMs: number[] = [];
  for (let i = 0; i < SIGN_INS; i++) {
    await sleep(SIGN_IN_GAP_MS);
    apartMs.push(await timed(() => signIn(target)));
  }
  return { health: healthMs, signIn: signInMs, signInApart: apartMs };
}

export interface UnderLoad {
  figures: Responsiveness[];
  heavy: Array<{ request: string; completed: number; failed: number }>;
}

/** Health and sign-in at rest, then while each heavy request runs back to back in a loop of its own. */
export async function responsivenessUnderLoad(
  target: BenchConsole,
  heavy: ScaleRequest[],
): Promise<UnderLoad> {
  const atRest = await sample(target);
  let running = true;
  const completed = heavy.map(() => 0);
  const failed = heavy.map(() => 0);
  const loops = heavy.map(async (ask, index) => {
    while (running) {
      const { rows, failure } = await timeRequest(target, ask);
      if (failure) failed[index] = (failed[index] ?? 0) + 1;
      else checkRows(ask.name, 'large', rows, ask.expect);
      completed[index] = (completed[index] ?? 0) + 1;
    }
  });
  // Every loop has its first request in flight before the sampling starts.
  await sleep(200);
  const underLoad = await sample(target).finally(() => {
    running = false;
  });
  await Promise.all(loops);
  return {
    figures: [
      responsiveness('GET /api/health', atRest.health, underLoad.health),
      responsiveness('sign-in (POST /api/auth/sign-in/email)', atRest.signIn, underLoad.signIn),
      responsiveness(
        `sign-in, one at a time (${SIGN_IN_GAP_MS} ms apart)`,
        atRest.signInApart,
        underLoad.signInApart,
      ),
    ],
    heavy: heavy.map((ask, index) => ({
      request: ask.name,
      completed: completed[index] ?? 0,
      failed: failed[index] ?? 0,
    })),
  };
}

/** VmRSS of a process, in MB. */
async function residentMb(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/^VmRSS:\s+(\d+)/m.exec(status)?.[1] ?? Number.NaN);
  return Math.round(kb / 1024);
}

interface ExportMemory {
  rows: number;
  beforeMb: number;
  peakMb: number;
  afterMb: number;
  seconds: number;
}

/**
 * How long the console idles after the exports before its memory is read again. V8 collects the
 * old generation at its own pace: RSS after each export rose by 40 MB on PostgreSQL and fell back
 * on the third or the seventh, and 30 s of idling gave it back (below the first export's start).
 * Only memory still held after the idle is kept by the console.
 */
export const SETTLE_MS = 30_000;

export interface ExportMemoryRun {
  exports: ExportMemory[];
  /** RSS once the console has idled SETTLE_MS after the last export. */
  settledMb: number;
}

/**
 * MEMORY_EXPORT three times in a row, the console's RSS read every 50 ms while its CSV streams in;
 * then once more after SETTLE_MS of idling.
 */
export async function exportMemory(target: BenchConsole): Promise<ExportMemoryRun> {
  const pid = target.pids[0];
  if (pid === undefined) throw new Error('the console has no pid to read its memory of');
  const exports: ExportMemory[] = [];
  for (let i = 0; i < 3; i++) {
    const beforeMb = await residentMb(pid);
    let peakMb = beforeMb;
    let watching = true;
    const watcher = (async () => {
      while (watching) {
        peakMb = Math.max(peakMb, await residentMb(pid));
        await sleep(50);
      }
    })();
    const start = performance.now();
    const answer = await request(`${target.base}${MEMORY_EXPORT}`, { headers: { cookie: target.cookie } });
    let lines = 0;
    for await (const chunk of answer.body) for (const byte of chunk as Buffer) if (byte === 10) lines++;
    const seconds = Math.round((performance.now() - start) / 100) / 10;
    watching = false;
    await watcher;
    if (answer.statusCode !== 200) throw new Error(`the export answered ${answer.statusCode}`);
    checkRows('the memory export', 'large', lines - 1, 'rows');
    exports.push({ rows: lines - 1, beforeMb, peakMb, afterMb: await residentMb(pid), seconds });
  }
  await sleep(SETTLE_MS);
  return { exports, settledMb: await residentMb(pid) };
}
