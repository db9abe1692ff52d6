/**
 * The test clock of `serve` is taken only when both are there: the environment variable and an IPC
 * channel from a parent. Either alone (a shell's stray variable, a process manager's channel) leaves
 * the service on the real clock.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { clockFromParent, TEST_CLOCK_ENV } from './parent-clock';

const originalSend = process.send;

afterEach(() => {
  vi.unstubAllEnvs();
  process.send = originalSend;
});

describe('clockFromParent', () => {
  it('leaves the real clock when only the environment variable asks for a test clock', () => {
    vi.stubEnv(TEST_CLOCK_ENV, '1');
    process.send = undefined;
    expect(clockFromParent()).toBeUndefined();
  });

  it('leaves the real clock when only an IPC channel is there', () => {
    vi.stubEnv(TEST_CLOCK_ENV, '');
    process.send = (() => true) as typeof process.send;
    expect(clockFromParent()).toBeUndefined();
  });

  it('moves its clock by the parent’s message, and answers when it has', async () => {
    vi.stubEnv(TEST_CLOCK_ENV, '1');
    let answered: (message: unknown) => void = () => {};
    const answer = new Promise((resolve) => {
      answered = resolve;
    });
    process.send = ((message: unknown) => {
      answered(message);
      return true;
    }) as typeof process.send;
    const clock = clockFromParent();
    expect(clock).toBeDefined();
    const before = clock?.now() ?? 0;
    const listeners = process.listeners('message');
    const listener = listeners.at(-1);
    try {
      listener?.({ advance: 4_000, id: 7 }, undefined);
      expect(await answer).toEqual({ advanced: 7, now: before + 4_000 });
      expect(clock?.now()).toBe(before + 4_000);
    } finally {
      if (listener) process.off('message', listener);
    }
  });
});
