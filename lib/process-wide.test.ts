import { describe, expect, it, vi } from 'vitest';
import { ConsoleError } from '@/lib/console-error';
import { crossCopyBrand, processWide } from '@/lib/process-wide';
import { currentRequestId, withRequestId } from '@/lib/server/request-context';
import { UpstreamError } from '@/lib/user-group-api/client';

/** Another copy of the modules, as Next's next bundle layer loads them. */
async function anotherCopy() {
  vi.resetModules();
  return {
    wide: await import('@/lib/process-wide'),
    errors: await import('@/lib/console-error'),
    upstream: await import('@/lib/user-group-api/client'),
    context: await import('@/lib/server/request-context'),
    log: await import('@/lib/server/logger'),
  };
}

describe('processWide', () => {
  it('makes a value once per process, whichever copy of the module asks', async () => {
    const make = vi.fn(() => ({ made: true }));
    const mine = processWide('test-value', make);
    const other = await anotherCopy();
    expect(other.wide.processWide).not.toBe(processWide);
    expect(other.wide.processWide('test-value', make)).toBe(mine);
    expect(make).toHaveBeenCalledTimes(1);
    // Another name is another value.
    expect(processWide('test-other-value', () => ({ made: true }))).not.toBe(mine);
  });

  it("keeps its values apart from the brands': a value named as a brand neither is nor wears it", () => {
    const value = processWide('test-shared-name', () => ({ made: true }));
    const { brand, carries } = crossCopyBrand('test-shared-name');
    expect(carries(value)).toBe(false);
    expect((globalThis as Record<symbol, unknown>)[brand]).toBeUndefined();
  });

  it("keeps one request context and one log: a route's copy sets the id the server's copy reads", async () => {
    const other = await anotherCopy();
    expect(other.context.withRequestId('request-1', () => currentRequestId())).toBe('request-1');
    expect(withRequestId('request-2', () => other.context.currentRequestId())).toBe('request-2');
    expect(other.log.logger).toBe((await import('@/lib/server/logger')).logger);
  });
});

describe('errors thrown by one copy and caught by another', () => {
  it('are instances of every copy of their class, and nothing else is', async () => {
    const other = await anotherCopy();
    expect(other.errors.ConsoleError).not.toBe(ConsoleError);
    const refused = new ConsoleError('audit_unavailable', 'Nothing was done.');
    expect(refused).toBeInstanceOf(other.errors.ConsoleError);
    expect(new other.errors.ConsoleError('forbidden', 'No.')).toBeInstanceOf(ConsoleError);
    expect(new UpstreamError('not_found', 'gone')).toBeInstanceOf(other.upstream.UpstreamError);
    // The brands are apart: one class's instance is not the other's, nor is a plain error either.
    expect(refused).not.toBeInstanceOf(other.upstream.UpstreamError);
    expect(new UpstreamError('not_found', 'gone')).not.toBeInstanceOf(ConsoleError);
    for (const value of [new Error('x'), null, undefined, 'ConsoleError', { name: 'ConsoleError' }])
      expect(value instanceof ConsoleError).toBe(false);
  });

  it('keep their class at home: Error methods, the name and the fields stay', () => {
    const refused = new ConsoleError('rate_limited', 'Slow down.', { retryAfterSeconds: 3 });
    expect(refused).toBeInstanceOf(Error);
    expect(refused.name).toBe('ConsoleError');
    expect(refused.status).toBe(429);
    expect(refused.headers).toEqual({ 'retry-after': '3' });
    expect(crossCopyBrand('console-error').carries(refused)).toBe(true);
  });
});
