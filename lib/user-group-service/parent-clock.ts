/**
 * A control for tests of several `serve` processes: a parent that spawns `serve` with an IPC channel
 * and USER_GROUP_SERVICE_TEST_CLOCK=1 runs it on a testClock that it moves by message, so that the
 * key cache's lifetime is shown by moving time rather than by waiting for it. Both are needed (an
 * environment variable alone, as a shell could set it, leaves the real clock).
 */
import { type Clock, testClock } from '../clock';

export const TEST_CLOCK_ENV = 'USER_GROUP_SERVICE_TEST_CLOCK';

/** What the parent sends: move time on by `ms`; answered with `{ advanced: id, now }` once done. */
export interface AdvanceMessage {
  advance: number;
  id: number;
}

/** The clock the parent moves, or undefined (the service's own) when it is not asked for. */
export function clockFromParent(): Clock | undefined {
  if (process.env[TEST_CLOCK_ENV] !== '1' || process.send === undefined) return undefined;
  const clock = testClock();
  process.on('message', (message: Partial<AdvanceMessage>) => {
    if (typeof message?.advance !== 'number' || typeof message.id !== 'number') return;
    const { id } = message;
    void clock.advance(message.advance).then(() => process.send?.({ advanced: id, now: clock.now() }));
  });
  // The channel must not keep a stopped service alive.
  process.channel?.unref();
  return clock;
}
