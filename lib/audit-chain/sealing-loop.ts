/**
 * The sealer as it runs in a console: a pass every EVERY_MS, each sealing what is there; a refusal
 * (the seals no longer reach the checkpoint, an entry dated past the clock) or entries left unsealed
 * past STALL_ALERT_MS said in the log, on /metrics and in the admin's Verify, every pass.
 */
import type { Clock } from '@/lib/clock';
import type { ConsoleDb } from '@/lib/db/console-database';
import type { Checkpoint } from './anchor';
import { type Sealer, SealRefused, sealAll } from './sealer';

/** Entries left unsealed this long, by the console's clock, while the seals do not move on: alert. */
const STALL_ALERT_MS = 5 * 60_000;
const EVERY_MS = 10_000;

/** How sealing goes, for the admin's Verify and /metrics: null while it seals, else why it refuses. */
export interface SealingState {
  refused: string | null;
  /** Why entries have waited past STALL_ALERT_MS to be sealed; null: they have not. */
  stalled: string | null;
  /** How long, by this console's clock, unsealed entries have waited with no seal moving on. */
  unsealedForMs: number;
}

/** The newest seal's last entry, and the first entry after it (null: every entry is sealed). */
async function sealedThrough(db: ConsoleDb) {
  const last = await db
    .selectFrom('audit_seal')
    .select('through_id')
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
  const through = Number(last?.through_id ?? 0);
  const next = await db
    .selectFrom('audit_event')
    .select(['id', 'at'])
    .where('id', '>', through)
    .orderBy('id')
    .limit(1)
    .executeTakeFirst();
  return { through, next: next ? { id: Number(next.id), at: next.at } : null };
}

/**
 * Times how long entries wait, by the console's clock (never by their `at`, which the database's
 * writer sets): from the pass that first found the seals at a point with entries after it, until
 * the seals move on or nothing is left. Any console's seals count.
 */
function stallWatch(clock: Clock) {
  let waiting: { through: number; since: number } | null = null;
  return async (db: ConsoleDb, state: SealingState) => {
    const { through, next } = await sealedThrough(db);
    if (!next) waiting = null;
    else if (waiting?.through !== through) waiting = { through, since: clock.now() };
    state.unsealedForMs = waiting ? clock.now() - waiting.since : 0;
    state.stalled =
      next && state.unsealedForMs > STALL_ALERT_MS
        ? `the entries from ${next.id} on have waited ${Math.floor(state.unsealedForMs / 60_000)} minutes to be sealed (entry ${next.id} is dated ${JSON.stringify(next.at).slice(0, 40)})`
        : null;
  };
}

/** Seals every few seconds until stopped. */
export function startAuditSealer(
  sealer: Sealer & {
    checkpoint: Checkpoint;
    log: (level: 'warn' | 'error', message: string, fields: Record<string, unknown>) => void;
    /** Told after each pass: the refusal, or null when it sealed (or had nothing to seal). */
    onState?: (state: SealingState) => void;
    everyMs?: number;
  },
): { stop(): void; state: SealingState } {
  const { clock, everyMs = EVERY_MS } = sealer;
  const stopped = new AbortController();
  const state: SealingState = { refused: null, stalled: null, unsealedForMs: 0 };
  const watch = stallWatch(clock);
  void (async () => {
    while (!stopped.signal.aborted) {
      await clock.sleep(everyMs, stopped.signal);
      if (stopped.signal.aborted) return;
      try {
        await sealAll(sealer);
        state.refused = null;
      } catch (error) {
        if (error instanceof SealRefused) {
          state.refused = error.message;
          // Every pass, on purpose: a log rewritten under a running console is not a quiet event.
          sealer.log('error', 'refusing to seal the audit log', { reason: error.message });
        }
        // Nothing half-written: a seal and the working set commit together. Next pass again.
        else sealer.log('warn', 'could not seal the audit log', { err: { name: (error as Error)?.name } });
      }
      try {
        await watch(sealer.db, state);
        // Every pass too: sealing held back leaves the newest entries editable without a trace.
        if (state.stalled)
          sealer.log('error', 'the audit log is not being sealed', { reason: state.stalled });
      } catch (error) {
        sealer.log('warn', 'could not read what is left to seal', { err: { name: (error as Error)?.name } });
      }
      sealer.onState?.(state);
    }
  })();
  return { stop: () => stopped.abort(), state };
}
