/**
 * The CPU time that processes (and their children) spent, read from Linux's /proc: what a request
 * costs the servers, whichever share of the 2 cores the scheduler gave them against the load
 * generator. Throughput on a machine this size measures that share as much as the code; CPU time
 * per request does not. Elsewhere than Linux: null, and figures fall back to throughput.
 */
import { readdirSync, readFileSync } from 'node:fs';
import type { LoadResult } from './load';

/** Clock ticks per second of /proc's utime and stime: 100 on every Linux this runs on. */
const TICKS_PER_SECOND = 100;

interface ProcStat {
  pid: number;
  parent: number;
  cpuTicks: number;
}

function readStat(pid: string): ProcStat | null {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command (2nd field) is in parentheses and may hold spaces: fields are counted after it.
    const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
    // Fields 4 (ppid), 14 (utime) and 15 (stime) of proc(5), counted from the state (field 3).
    return { pid: Number(pid), parent: Number(fields[1]), cpuTicks: Number(fields[11]) + Number(fields[12]) };
  } catch {
    return null; // exited meanwhile
  }
}

/** Milliseconds of CPU the processes `roots` and all their descendants have used; null off Linux. */
export function cpuMsOfTrees(roots: readonly number[]): number | null {
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
  let ticks = 0;
  const visit = (stat: ProcStat | undefined) => {
    if (!stat) return;
    ticks += stat.cpuTicks;
    for (const child of children.get(stat.pid) ?? []) visit(child);
  };
  for (const root of roots) visit(byPid.get(root));
  return (ticks * 1000) / TICKS_PER_SECOND;
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
