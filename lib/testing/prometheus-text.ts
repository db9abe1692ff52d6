/**
 * Reading a `/metrics` scrape in tests: one sample's value by name and labels (0 when absent), and
 * this machine's own address that is not loopback, to reach a server from "elsewhere" for real.
 */
import { networkInterfaces } from 'node:os';

export function sampleValue(text: string, name: string, labels: Record<string, string> = {}): number {
  for (const line of text.split('\n')) {
    if (line.startsWith('#')) continue;
    const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const found: Record<string, string> = {};
    for (const [, key, value] of (match[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)) {
      found[key as string] = value as string;
    }
    if (Object.entries(labels).every(([key, value]) => found[key] === value)) return Number(match[3]);
  }
  return 0;
}

/** An IPv4 address of this machine that is not loopback, or null (then those tests are skipped). */
export function nonLoopbackAddress(): string | null {
  const addresses = Object.values(networkInterfaces()).flat();
  return addresses.find((entry) => entry && !entry.internal && entry.family === 'IPv4')?.address ?? null;
}
