/**
 * The console's get-or-create route handler (origin check, real session lookup, audit write, upstream
 * call) at 32 connections, against the bare `GET /api/health` route of the same build and process,
 * measured right before it.
 */
import { startBenchConsole } from './console-server';
import { type LoadResult, runLoad } from './load';
import { round } from './service';

export interface ConsoleRouteResult {
  route: LoadResult;
  baseline: LoadResult;
  ratio: number;
}

const seconds = Number(process.env.BENCH_SECONDS ?? 5);

export async function benchConsole(): Promise<ConsoleRouteResult> {
  const consoleServer = await startBenchConsole();
  try {
    const { base, origin, cookie } = consoleServer;
    const headers = { cookie, origin, 'content-type': 'application/json' };
    const body = JSON.stringify({
      user_group_id: 'bench-console',
      name: 'Bench',
      properties: { plan: 'pro' },
    });
    const url = `${base}/api/user-groups/customer/get-or-create`;
    // Seed once, so the load measures the steady case (an existing group) and a bad session fails here.
    const seeded = await fetch(url, { method: 'POST', headers, body });
    if (!seeded.ok) throw new Error(`seeding answered ${seeded.status}: ${await seeded.text()}`);

    const health = { url: `${base}/api/health` };
    const getOrCreate = { url, method: 'POST' as const, headers, body };
    // `next start` loads a route's code and warms its JIT on first use: one discarded second each.
    await runLoad({ ...health, duration: 1 });
    await runLoad({ ...getOrCreate, duration: 1 });
    const baseline = await runLoad({ ...health, duration: seconds });
    const route = await runLoad({ ...getOrCreate, duration: seconds });
    return { route, baseline, ratio: round(route.requestsPerSecond / baseline.requestsPerSecond) };
  } finally {
    await consoleServer.stop();
  }
}
