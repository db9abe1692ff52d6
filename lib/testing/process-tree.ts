/**
 * A process and everything it started, read from /proc (Linux only): for the bench's footprint
 * figure (RSS summed over the tree) and for the test that no `tsx` runs under a started console.
 */
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';

export interface TreeProcess {
  pid: number;
  parentPid: number;
  /** Its command line, arguments joined with spaces. */
  command: string;
  /** Resident set size (VmRSS), in kB; 0 for a zombie. */
  rssKb: number;
  /** CPU time used so far, user and system, every thread (10 ms ticks). */
  cpuMs: number;
}

/** Clock ticks per second of /proc/<pid>/stat's times: 100 on Linux (USER_HZ). */
const TICKS_PER_SECOND = 100;

function readOrNull(file: string): string | null {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    // The process exited between listing and reading.
    return null;
  }
}

function readProcess(pid: number): TreeProcess | null {
  const stat = readOrNull(`/proc/${pid}/stat`);
  const status = readOrNull(`/proc/${pid}/status`);
  if (stat === null || status === null) return null;
  // "pid (comm) state ppid …": comm may hold spaces and parentheses, so parse after the last ')'.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // After the comm: state ppid … utime (14th field of the line) stime (15th).
  const parentPid = Number(fields[1]);
  const cpuMs = ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND;
  const rss = /^VmRSS:\s+(\d+) kB$/m.exec(status);
  const command = (readOrNull(`/proc/${pid}/cmdline`) ?? '').split('\0').filter(Boolean).join(' ');
  return { pid, parentPid, command, rssKb: rss ? Number(rss[1]) : 0, cpuMs };
}

/** The process `rootPid` and its descendants, root first; empty when it is gone. */
export function processTree(rootPid: number): TreeProcess[] {
  const all = readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .map((entry) => readProcess(Number(entry)))
    .filter((entry): entry is TreeProcess => entry !== null);
  const root = all.find((entry) => entry.pid === rootPid);
  if (!root) return [];
  const tree = [root];
  for (let index = 0; index < tree.length; index++) {
    const parent = tree[index]?.pid;
    tree.push(...all.filter((entry) => entry.parentPid === parent));
  }
  return tree;
}

/** The process listening on a TCP port on this machine, from /proc/net/tcp{,6}; null when none. */
export function listeningPid(port: number): number | null {
  const hexPort = port.toString(16).toUpperCase().padStart(4, '0');
  const inodes = new Set<string>();
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    for (const line of (readOrNull(table) ?? '').split('\n').slice(1)) {
      // sl local_address rem_address st … inode: 0A is LISTEN.
      const fields = line.trim().split(/\s+/);
      if (fields[1]?.endsWith(`:${hexPort}`) && fields[3] === '0A' && fields[9]) inodes.add(fields[9]);
    }
  }
  if (inodes.size === 0) return null;
  for (const entry of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    let descriptors: string[];
    try {
      descriptors = readdirSync(`/proc/${entry}/fd`);
    } catch {
      continue;
    }
    for (const descriptor of descriptors) {
      try {
        const target = readlinkSync(`/proc/${entry}/fd/${descriptor}`);
        if (inodes.has(/^socket:\[(\d+)\]$/.exec(target)?.[1] ?? '')) return Number(entry);
      } catch {
        // closed meanwhile
      }
    }
  }
  return null;
}

/** The NODE_OPTIONS a process was started with ('' when none or unreadable). */
export function nodeOptionsOf(pid: number): string {
  const environment = readOrNull(`/proc/${pid}/environ`) ?? '';
  const entry = environment.split('\0').find((variable) => variable.startsWith('NODE_OPTIONS='));
  return entry?.slice('NODE_OPTIONS='.length) ?? '';
}
