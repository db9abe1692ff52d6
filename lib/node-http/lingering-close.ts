/**
 * A lingering close, as nginx does it: when a server answers before the request body has arrived
 * (413, or 401 before reading), it reads and drops the rest of the body for a while before it
 * closes. Closing with unread bytes makes the kernel send a reset, and a client still sending its
 * body then loses the answer or reports an error over it: Node's http client gets EPIPE or
 * ECONNRESET for a 5 MB body answered 413, every time.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';

export interface LingerBounds {
  /** Body bytes dropped after the answer at most; beyond them the connection is closed. */
  maxBytes: number;
  /** Time after the answer at most. */
  maxMs: number;
}

// A client sending a few MB too many hears why; one sending gigabytes is cut off soon.
export const LINGER_BOUNDS: LingerBounds = { maxBytes: 8 * 1024 * 1024, maxMs: 10_000 };

/**
 * Call before the answer ends (costs one listener): if the request body is not complete when the
 * answer is sent, the rest is read and dropped, within `bounds`, before the connection closes (or,
 * on a kept-alive connection, before the next request is read).
 */
export function lingerAfterAnswer(
  request: IncomingMessage,
  response: ServerResponse,
  bounds: LingerBounds = LINGER_BOUNDS,
): void {
  // 'prefinish': the answer is handed to the socket and Node has not let go of the request yet.
  // Reading from here on keeps Node from discarding the rest unseen, where no bound could count it.
  response.once('prefinish', () => {
    if (!request.complete && !request.socket.destroyed) dropRestOfBody(request, response, bounds);
  });
}

function dropRestOfBody(
  request: IncomingMessage,
  response: ServerResponse,
  { maxBytes, maxMs }: LingerBounds,
): void {
  const socket = request.socket;
  let closing = false;
  let dropped = 0;
  const stop = (destroy: boolean) => {
    clearTimeout(timer);
    request.off('data', drop);
    request.off('close', bodyDone);
    response.off('finish', holdClose);
    if (destroy) socket.destroy();
  };
  const drop = (chunk: Buffer) => {
    dropped += chunk.length;
    if (dropped > maxBytes) stop(true);
  };
  // 'close' follows the body's end, or the connection's loss.
  const bodyDone = () => stop(closing);
  // An answer that closes the connection (Connection: close) has just called socket.destroySoon():
  // FIN now, destroy once it is flushed. Take the destroy back; it comes once the body is through.
  const holdClose = () => {
    closing = socket.writableEnded;
    if (closing) socket.removeListener('finish', socket.destroy);
  };
  const timer = setTimeout(() => stop(true), maxMs);
  timer.unref();
  request.on('data', drop);
  request.once('close', bodyDone);
  response.once('finish', holdClose);
  // Paused by a reader that stopped at its limit, or never read: flow, and drop.
  request.resume();
}
