import { describe, expect, it, vi } from 'vitest';
import { readBodyText, readJson } from './request-body';

/** A 20 MB body produced on demand, counting what the reader actually pulled. */
function streamedBody(totalBytes: number, chunkBytes = 64 * 1024) {
  let pulled = 0;
  let cancelled = false;
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (pulled >= totalBytes) return controller.close();
      const chunk = new Uint8Array(Math.min(chunkBytes, totalBytes - pulled)).fill(0x61);
      pulled += chunk.byteLength;
      controller.enqueue(chunk);
    },
    cancel() {
      cancelled = true;
    },
  });
  return { stream, pulled: () => pulled, cancelled: () => cancelled };
}

const post = (body: BodyInit | null, headers: Record<string, string> = {}) =>
  new Request('http://console.test/api/x', { method: 'POST', body, headers, duplex: 'half' } as RequestInit);

describe('readBodyText', () => {
  it('reads a body within the limit', async () => {
    expect(await readBodyText(post('{"a":1}'))).toEqual({ text: '{"a":1}' });
    expect(await readBodyText(post(null))).toEqual({ text: '' });
  });

  it('keeps at most 1 MiB of a 20 MB body, drops 8 MiB more so the client hears the 413, then stops', async () => {
    const body = streamedBody(20 * 1024 * 1024);
    expect(await readBodyText(post(body.stream))).toEqual({ tooLarge: true });
    expect(body.pulled()).toBeGreaterThan(9 * 1024 * 1024);
    expect(body.pulled()).toBeLessThan(9 * 1024 * 1024 + 256 * 1024);
    expect(body.cancelled()).toBe(true);
  });

  it('reads and drops the whole of a 5 MB body rather than cancelling it', async () => {
    const declared = { 'content-length': String(5 * 1024 * 1024) };
    for (const headers of [{}, declared] as Record<string, string>[]) {
      const body = streamedBody(5 * 1024 * 1024);
      expect(await readBodyText(post(body.stream, headers))).toEqual({ tooLarge: true });
      expect(body.pulled()).toBe(5 * 1024 * 1024);
      // Cancelling the stream of a Node request destroys its socket, and the answer with it.
      expect(body.cancelled()).toBe(false);
    }
  });

  it('cancels a body that stalls once maxMs have passed', async () => {
    let cancelled = false;
    const stalled = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new Uint8Array(2048).fill(0x61));
      },
      cancel() {
        cancelled = true;
      },
    });
    // The bound's timer moved by hand: under load, a real one ran out before the turns below.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      let ended = false;
      const reading = readBodyText(post(stalled), 1024, { maxBytes: 1024 * 1024, maxMs: 50 }).finally(() => {
        ended = true;
      });
      // Not cancelled at once, nor a moment before maxMs: what came was read, the rest waited for.
      for (let turn = 0; turn < 5; turn += 1) await new Promise((resolve) => setImmediate(resolve));
      vi.advanceTimersByTime(49);
      for (let turn = 0; turn < 5; turn += 1) await new Promise((resolve) => setImmediate(resolve));
      expect([ended, cancelled]).toEqual([false, false]);
      vi.advanceTimersByTime(1);
      expect(await reading).toEqual({ tooLarge: true });
      expect(cancelled).toBe(true);
    } finally {
      vi.useRealTimers();
    }
  });

  it('refuses a declared Content-Length over the limit without reading', async () => {
    const body = streamedBody(20 * 1024 * 1024);
    const request = post(body.stream, { 'content-length': String(20 * 1024 * 1024) });
    expect(await readBodyText(request)).toEqual({ tooLarge: true });
    expect(body.pulled()).toBeLessThanOrEqual(64 * 1024 * 2);
  });
});

describe('readJson', () => {
  const withType = (contentType: string) => post('{"a":1}', { 'content-type': contentType });

  it.each(['application/json', 'application/json; charset=utf-8', 'Application/JSON;charset=UTF-8'])(
    'reads %s',
    async (contentType) => {
      expect(await readJson(withType(contentType))).toEqual({ a: 1 });
    },
  );

  it.each([
    'application/json-patch+json',
    'application/jsonp',
    'application/json5',
    'application/json+x; charset=utf-8',
    'text/json',
    '',
  ])('refuses %s as not JSON (415)', async (contentType) => {
    await expect(readJson(withType(contentType))).rejects.toMatchObject({
      code: 'unsupported_media_type',
    });
  });

  it('refuses a body nesting deeper than the service takes (400), which JSON.stringify could not send', async () => {
    const nested = (levels: number) => `${'{"a":'.repeat(levels)}1${'}'.repeat(levels)}`;
    const json = (text: string) => post(text, { 'content-type': 'application/json' });
    expect(await readJson(json(nested(64)))).toBeTruthy();
    await expect(readJson(json(nested(65)))).rejects.toMatchObject({
      code: 'invalid_request',
      message: 'The request body nests deeper than 64 levels.',
    });
    // 100,000 levels in 600 KB: JSON.parse took it, and the upstream call's JSON.stringify threw (a 500).
    const deep = `{"user_group_id":"g","properties":${nested(100_000)}}`;
    await expect(readJson(json(deep))).rejects.toMatchObject({ code: 'invalid_request' });
  });
});
