import { describe, expect, it } from 'vitest';
import { readBodyText } from './request-body';

/** A 20 MB body produced on demand, counting what the reader actually pulled. */
function streamedBody(totalBytes: number, chunkBytes = 64 * 1024) {
  let pulled = 0;
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (pulled >= totalBytes) return controller.close();
      const chunk = new Uint8Array(Math.min(chunkBytes, totalBytes - pulled)).fill(0x61);
      pulled += chunk.byteLength;
      controller.enqueue(chunk);
    },
  });
  return { stream, pulled: () => pulled };
}

const post = (body: BodyInit | null, headers: Record<string, string> = {}) =>
  new Request('http://console.test/api/x', { method: 'POST', body, headers, duplex: 'half' } as RequestInit);

describe('readBodyText', () => {
  it('reads a body within the limit', async () => {
    expect(await readBodyText(post('{"a":1}'))).toEqual({ text: '{"a":1}' });
    expect(await readBodyText(post(null))).toEqual({ text: '' });
  });

  it('stops reading a 20 MB body soon after the 1 MiB limit', async () => {
    const body = streamedBody(20 * 1024 * 1024);
    expect(await readBodyText(post(body.stream))).toEqual({ tooLarge: true });
    expect(body.pulled()).toBeLessThan(1024 * 1024 + 256 * 1024);
  });

  it('refuses a declared Content-Length over the limit without reading', async () => {
    const body = streamedBody(20 * 1024 * 1024);
    const request = post(body.stream, { 'content-length': String(20 * 1024 * 1024) });
    expect(await readBodyText(request)).toEqual({ tooLarge: true });
    expect(body.pulled()).toBeLessThanOrEqual(64 * 1024 * 2);
  });
});
