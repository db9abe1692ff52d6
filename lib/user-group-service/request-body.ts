/**
 * Request bodies: content type, a bounded read, and JSON that must be an object. The size limit is
 * enforced while reading (and up front from Content-Length), so a huge body is never buffered.
 */
import type { IncomingMessage } from 'node:http';
import { ServiceError } from './errors';

export const MAX_BODY_BYTES = 1024 * 1024;
/** JSON.stringify recurses: a deeply nested `properties` would overflow the stack when stored. */
export const MAX_JSON_DEPTH = 64;

/** application/json, optionally with `charset=utf-8`; anything else is 415. */
export function assertJsonContentType(contentType: string | undefined): void {
  if (contentType === undefined) {
    throw new ServiceError('unsupported_media_type', 'send Content-Type: application/json');
  }
  const [mediaType, ...parameters] = contentType.split(';');
  const acceptable =
    mediaType?.trim().toLowerCase() === 'application/json' &&
    parameters.every((parameter) => {
      const [name, value] = parameter.split('=');
      if (name?.trim().toLowerCase() !== 'charset') return true;
      return value?.trim().replace(/^"|"$/g, '').toLowerCase() === 'utf-8';
    });
  if (!acceptable) {
    throw new ServiceError('unsupported_media_type', 'send Content-Type: application/json (UTF-8)');
  }
}

const tooLarge = () =>
  new ServiceError('payload_too_large', `the request body must be at most ${MAX_BODY_BYTES} bytes`, {
    closeConnection: true,
  });

export function readBody(request: IncomingMessage, limit = MAX_BODY_BYTES): Promise<Buffer> {
  const declared = Number(request.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) return Promise.reject(tooLarge());

  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let received = 0;
    const cleanup = () => {
      request.off('data', onData);
      request.off('end', onEnd);
      request.off('error', onError);
      request.off('aborted', onError);
    };
    const onData = (chunk: Buffer) => {
      received += chunk.length;
      if (received > limit) {
        cleanup();
        // Stop buffering; the router answers 413 and closes the connection.
        request.pause();
        reject(tooLarge());
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = () => {
      cleanup();
      resolve(chunks.length === 1 && chunks[0] ? chunks[0] : Buffer.concat(chunks));
    };
    const onError = () => {
      cleanup();
      reject(new ServiceError('invalid_request', 'the request body was not received completely'));
    };
    request.on('data', onData);
    request.on('end', onEnd);
    request.on('error', onError);
    request.on('aborted', onError);
  });
}

/** Parses the body as JSON and insists on an object (not an array, null or a scalar). */
export function parseJsonObject(body: Buffer): Record<string, unknown> {
  const text = body.toString('utf8');
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new ServiceError('invalid_request', 'the request body is not valid JSON');
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new ServiceError('invalid_request', 'the request body must be a JSON object');
  }
  if (nestingDepthExceeds(text, MAX_JSON_DEPTH)) {
    throw new ServiceError('invalid_request', `the request body must nest at most ${MAX_JSON_DEPTH} levels`);
  }
  return value as Record<string, unknown>;
}

/** Scans valid JSON text for bracket depth, skipping strings. */
function nestingDepthExceeds(text: string, maxDepth: number): boolean {
  let depth = 0;
  let inString = false;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (inString) {
      if (code === 0x5c)
        index++; // backslash: skip the escaped character
      else if (code === 0x22) inString = false;
    } else if (code === 0x22) {
      inString = true;
    } else if (code === 0x7b || code === 0x5b) {
      if (++depth > maxDepth) return true;
    } else if (code === 0x7d || code === 0x5d) {
      depth--;
    }
  }
  return false;
}
