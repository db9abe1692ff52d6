/**
 * Sign-in attempts per window, counted per email address and per client address (the socket's,
 * or a trusted proxy's report of it: lib/config/trusted-proxies.ts). IPv6 clients count per /64, the
 * block one subscriber usually holds. In memory: the console runs as one process.
 *
 * The map holds at most `maxKeys` windows: expired windows go first, then the oldest. A flood of
 * fresh keys can thus make the limiter forget a count, but each flood request also spends its
 * client's own budget.
 */
import { isIPv6 } from 'node:net';

export interface SignInLimit {
  max: number;
  windowSeconds: number;
}

export type LimitVerdict =
  | { allowed: true }
  /** `firstRefusal`: the first refused attempt of its window, the one worth an audit entry. */
  | { allowed: false; retryAfterSeconds: number; firstRefusal: boolean };

interface Window {
  startedAt: number;
  count: number;
  refused: boolean;
}

export class SignInLimiter {
  private readonly windows = new Map<string, Window>();

  constructor(
    private readonly limit: SignInLimit,
    private readonly now: () => number = Date.now,
    private readonly maxKeys = 10_000,
  ) {}

  get trackedKeys(): number {
    return this.windows.size;
  }

  /** Counts one attempt against every key; refused when any key is over its limit. */
  attempt(keys: readonly string[]): LimitVerdict {
    const now = this.now();
    const windowMs = this.limit.windowSeconds * 1000;
    let retryAfterMs = 0;
    let firstRefusal = false;
    for (const key of keys) {
      const window = this.windows.get(key);
      if (window && now - window.startedAt < windowMs && window.count >= this.limit.max) {
        retryAfterMs = Math.max(retryAfterMs, window.startedAt + windowMs - now);
        firstRefusal ||= !window.refused;
        window.refused = true;
      }
    }
    if (retryAfterMs > 0) {
      return { allowed: false, retryAfterSeconds: Math.ceil(retryAfterMs / 1000), firstRefusal };
    }
    for (const key of keys) {
      const window = this.windows.get(key);
      if (window && now - window.startedAt < windowMs) {
        window.count += 1;
        continue;
      }
      this.windows.delete(key);
      this.makeRoom(now, windowMs);
      this.windows.set(key, { startedAt: now, count: 1, refused: false });
    }
    return { allowed: true };
  }

  private makeRoom(now: number, windowMs: number): void {
    if (this.windows.size < this.maxKeys) return;
    for (const [key, window] of this.windows) {
      if (now - window.startedAt >= windowMs) this.windows.delete(key);
    }
    // Still full: the Map iterates in insertion order, so the first keys are the oldest windows.
    for (const key of this.windows.keys()) {
      if (this.windows.size < this.maxKeys) break;
      this.windows.delete(key);
    }
  }
}

/** The keys of one attempt: the email (normalised) and the client address when one is known. */
export function signInKeys(email: string | null, clientAddress: string | null): string[] {
  const keys: string[] = [];
  if (email) keys.push(`email:${email.trim().toLowerCase()}`);
  if (clientAddress) keys.push(`client:${clientBlock(clientAddress.trim())}`);
  // Neither is known (a plain `next start` and no email): one shared key rather than none.
  if (keys.length === 0) keys.push('client:unknown');
  return keys;
}

function clientBlock(address: string): string {
  if (!isIPv6(address)) return address;
  const [head = '', tail = ''] = address.toLowerCase().split('::');
  const groups = [...head.split(':').filter(Boolean)];
  const tailGroups = tail.split(':').filter(Boolean);
  while (groups.length + tailGroups.length < 8) groups.push('0');
  return `${[...groups, ...tailGroups].slice(0, 4).join(':')}::/64`;
}
