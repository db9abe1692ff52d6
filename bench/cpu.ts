/**
 * The CPU time that processes (and their children) spent, read from Linux's /proc: what a request
 * costs the servers, whichever share of the 2 cores the scheduler gave them against the load
 * generator. Throughput on a machine this size measures that share as much as the code; CPU time
 * per request does not. Each thread's time comes from its schedstat, in nanoseconds (utime and
 * stime count 10 ms ticks: too coarse for a bare handler's 0.03 ms). Elsewhere than Linux: null,
 * and figures fall back to throughput.
 */
import { readdirSync, readFileSync } from 'node:fs';
import type { LoadResult } from './load';

interface ProcStat {
  pid: number;
  parent: number;
}

function readStat(pid: string): ProcStat | null {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command (2nd field) is in parentheses and may hold spaces: fields are counted after it.
    const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
    // Field 4 of proc(5), ppid, is the second after the command.
    return { pid: Number(pid), parent: Number(fields[1]) };
  } catch {
    return null; // exited meanwhile
  }
}

/** Nanoseconds on a CPU, over the process's threads (the first field of each one's schedstat). */
function cpuNanosOf(pid: number): number {
  try {
    let nanos = 0;
    for (const thread of readdirSync(`/proc/${pid}/task`)) {
      try {
        nanos += Number(readFileSync(`/proc/${pid}/task/${thread}/schedstat`, 'utf8').split(' ')[0]);
      } catch {
        // the thread ended meanwhile
      }
    }
    return nanos;
  } catch {
    return 0; // the process ended meanwhile
  }
}

/** Milliseconds of CPU the processes `roots` and all their descendants have used; null off Linux. */
function cpuMsOfTrees(roots: readonly number[]): number | null {
  let entries: string[];
  try {
    entries = readdirSync('/proc').filter((name) => /^\d+$/.test(name));
  } catch {
    return null;
  }
  const stats = entries.map(readStat).filter((stat): stat is ProcStat => stat !== null);
  const children = new Map<number, ProcStat[]>();
  for (const stat of stats) children.set(stat.parent, [...(children.get(stat.parent) ?? []), stat]);
  const byPid = new Map(stats.map((stat) => [stat.pid, stat]));
  let nanos = 0;
  const visit = (stat: ProcStat | undefined) => {
    if (!stat) return;
    nanos += cpuNanosOf(stat.pid);
    for (const child of children.get(stat.pid) ?? []) visit(child);
  };
  for (const root of roots) visit(byPid.get(root));
  return nanos / 1e6;
}

/** A load run that also reports the CPU its servers spent per answered request. */
export function withServerCpu(
  servers: () => readonly number[],
  run: (seconds: number) => Promise<LoadResult>,
): (seconds: number) => Promise<LoadResult> {
  return async (seconds) => {
    const before = cpuMsOfTrees(servers());
    const load = await run(seconds);
    const after = cpuMsOfTrees(servers());
    if (before === null || after === null || load.requests === 0) return load;
    return { ...load, serverCpuMsPerRequest: (after - before) / load.requests };
  };
}
