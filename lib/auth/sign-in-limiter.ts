/**
 * Sign-in attempts per window, counted per email address and per client address. better-auth's
 * own limiter keys on X-Forwarded-For alone, which a client can set to a fresh value on every
 * attempt when the console is not behind a proxy; the per-email count holds regardless.
 * In memory: the console runs as one process.
 */
export interface SignInLimit {
  max: number;
  windowSeconds: number;
}

export type LimitVerdict = { allowed: true } | { allowed: false; retryAfterSeconds: number };

interface Window {
  startedAt: number;
  count: number;
}

const MAX_TRACKED_KEYS = 10_000;

export class SignInLimiter {
  private readonly windows = new Map<string, Window>();

  constructor(
    private readonly limit: SignInLimit,
    private readonly now: () => number = Date.now,
  ) {}

  /** Counts one attempt against every key; refused when any key is over its limit. */
  attempt(keys: readonly string[]): LimitVerdict {
    const now = this.now();
    const windowMs = this.limit.windowSeconds * 1000;
    this.prune(now, windowMs);
    let retryAfterMs = 0;
    for (const key of keys) {
      const window = this.windows.get(key);
      if (window && now - window.startedAt < windowMs && window.count >= this.limit.max) {
        retryAfterMs = Math.max(retryAfterMs, window.startedAt + windowMs - now);
      }
    }
    if (retryAfterMs > 0) return { allowed: false, retryAfterSeconds: Math.ceil(retryAfterMs / 1000) };
    for (const key of keys) {
      const window = this.windows.get(key);
      if (!window || now - window.startedAt >= windowMs) this.windows.set(key, { startedAt: now, count: 1 });
      else window.count += 1;
    }
    return { allowed: true };
  }

  private prune(now: number, windowMs: number): void {
    if (this.windows.size < MAX_TRACKED_KEYS) return;
    for (const [key, window] of this.windows) {
      if (now - window.startedAt >= windowMs) this.windows.delete(key);
    }
  }
}

/** The keys of one attempt: the email (normalised) and the client address when one is known. */
export function signInKeys(email: string | null, clientAddress: string | null): string[] {
  const keys: string[] = [];
  if (email) keys.push(`email:${email.trim().toLowerCase()}`);
  keys.push(`client:${clientAddress?.trim() || 'unknown'}`);
  return keys;
}
