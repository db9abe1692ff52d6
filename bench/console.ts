/**
 * The console's route handlers (origin check, real session lookup, audit write, upstream call):
 * - at 32 connections: get-or-create against the bare `GET /api/health` route of the same build
 *   and process, as the CPU the console and its service spend per request (bench/pairs.ts cpuCost),
 *   with throughput beside it;
 * - what one person feels: get-or-create, rotate and the directory search at one connection, p50
 *   and p99, against the service called directly (get-or-create and rotate: the same call; the
 *   search, which the service has not got: its get-or-create of an existing group).
 * Every figure is the median of interleaved pairs (bench/pairs.ts); the one-person figures' pairs
 * go round the three operations.
 */
import { request } from 'undici';
import { type BenchConsole, startBenchConsole } from './console-server';
import { withServerCpu } from './cpu';
import { type LoadOptions, runLoad } from './load';
import {
  CONSOLE_WARMUP_SECONDS,
  cpuCost,
  measureInterleaved,
  measurePairs,
  ONE_PERSON_PLAN,
  type PairedFigure,
  p50Latency,
} from './pairs';
import { rotationLoad, tokenOf } from './rotation';

export interface ConsoleResult {
  /** At 32 connections: CPU per request against the health route (throughput beside it). */
  atLoad: PairedFigure;
  /** Console p50 over the service's p50 in each pair; p99s reported beside. */
  onePerson: Array<{ operation: string; baseline: string; figure: PairedFigure }>;
}

const ROTATION_CHAIN = 4;

export async function benchConsole(): Promise<ConsoleResult> {
  const benchConsole = await startBenchConsole();
  try {
    const { base, origin, cookie, service } = benchConsole;
    const consoleHeaders = { cookie, origin, 'content-type': 'application/json' };
    const serviceHeaders = { authorization: `Token ${service.key}`, 'content-type': 'application/json' };
    const body = JSON.stringify({
      user_group_id: 'bench-console',
      name: 'Bench',
      properties: { plan: 'pro' },
    });
    const getOrCreateUrl = `${base}/api/user-groups/customer/get-or-create`;
    // Seed once, so the load measures the steady case (an existing group) and a bad session fails here.
    await call(getOrCreateUrl, 'POST', consoleHeaders, body);
    const consoleGetOrCreate = {
      url: getOrCreateUrl,
      method: 'POST' as const,
      headers: consoleHeaders,
      body,
    };
    const serviceGetOrCreate = {
      url: `${service.url}/api/user`,
      method: 'GET' as const,
      headers: serviceHeaders,
      body,
    };

    // The console and the service it calls: a get-or-create costs both.
    const servers = () => benchConsole.pids;
    const atLoad = await measurePairs(
      {
        baseline: withServerCpu(servers, (duration) =>
          runLoad('console GET /api/health', { url: `${base}/api/health`, duration }),
        ),
        scenario: withServerCpu(servers, (duration) =>
          runLoad('console get-or-create', { ...consoleGetOrCreate, duration }),
        ),
      },
      cpuCost,
      { warmupSeconds: CONSOLE_WARMUP_SECONDS },
    );

    const one = (label: string, options: LoadOptions) => (duration: number) =>
      runLoad(label, { ...options, connections: 1, duration });
    const consoleRotate = await rotationChain(benchConsole, 'console');
    const serviceRotate = await rotationChain(benchConsole, 'service');
    const searchUrl = `${base}/api/user-groups/customer?q=${encodeURIComponent('bench')}`;
    await call(searchUrl, 'GET', { cookie });
    const operations = [
      {
        operation: 'get-or-create',
        baseline: 'service get-or-create',
        runs: {
          baseline: one('service get-or-create', serviceGetOrCreate),
          scenario: one('console get-or-create', consoleGetOrCreate),
        },
      },
      {
        operation: 'rotate',
        baseline: 'service rotate',
        runs: { baseline: serviceRotate, scenario: consoleRotate },
      },
      {
        operation: 'directory search',
        baseline: 'service get-or-create',
        runs: {
          baseline: one('service get-or-create', serviceGetOrCreate),
          scenario: one('console directory search', { url: searchUrl, headers: { cookie } }),
        },
      },
    ];
    // Round the three operations pair by pair (bench/pairs.ts measureInterleaved): one at a time,
    // a slow spell of the machine moved whichever operation it fell on.
    const figures = await measureInterleaved(
      operations.map(({ runs }) => runs),
      p50Latency,
      ONE_PERSON_PLAN,
    );
    const onePerson = operations.map(({ operation, baseline }, index) => {
      const figure = figures[index];
      if (!figure) throw new Error(`no figure measured for ${operation}`);
      return { operation, baseline, figure };
    });
    return { atLoad, onePerson };
  } finally {
    await benchConsole.stop();
  }
}

/**
 * Rotation through the console or straight to the service, one connection: a chain of groups whose
 * current tokens each answer replaces. An empty chain fails the run (bench/rotation.ts).
 */
async function rotationChain(
  { base, origin, cookie, service }: BenchConsole,
  through: 'console' | 'service',
) {
  const viaConsole = through === 'console';
  const headers: Record<string, string> = viaConsole
    ? { cookie, origin, 'content-type': 'application/json' }
    : { authorization: `Token ${service.key}`, 'content-type': 'application/json' };
  const rotation = rotationLoad(ROTATION_CHAIN, async (serial) => {
    const seed = JSON.stringify({ user_group_id: `bench-${through}-rotate-${serial}` });
    const answer = viaConsole
      ? await call(`${base}/api/user-groups/customer/get-or-create`, 'POST', headers, seed)
      : await call(`${service.url}/api/user`, 'GET', headers, seed);
    return tokenOf(answer);
  });
  const url = viaConsole ? `${base}/api/user-groups/customer/rotate` : `${service.url}/api/user`;
  return (duration: number) =>
    rotation.checked(`${through} rotate`, () =>
      runLoad(`${through} rotate`, {
        url,
        method: 'POST',
        headers,
        requests: [rotation.request],
        connections: 1,
        duration,
      }),
    );
}

/** One call (undici: the service's get-or-create is a GET with a body); throws unless 200. */
async function call(url: string, method: 'GET' | 'POST', headers: Record<string, string>, body?: string) {
  const answer = await request(url, { method, headers, body });
  const text = await answer.body.text();
  if (answer.statusCode !== 200) throw new Error(`${method} ${url} answered ${answer.statusCode}: ${text}`);
  return text;
}
