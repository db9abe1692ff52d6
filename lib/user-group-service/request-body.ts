/**
 * Request bodies: content type, a bounded read, and JSON that must be an object. The size limit is
 * enforced while reading (and up front from Content-Length), so a huge body is never buffered.
 */
import type { IncomingMessage } from 'node:http';
import { depthExceededAt } from '../json-depth';
import { JSON_DEPTH_MAX } from '../user-group-api/contract';
import { ServiceError } from './errors';

const MAX_BODY_BYTES = 1024 * 1024;
/** JSON.stringify recurses: a deeply nested `properties` would overflow the stack when stored. */
const MAX_JSON_DEPTH = JSON_DEPTH_MAX;

/** application/json, optionally with `charset=utf-8`; anything else is 415. */
export function assertJsonContentType(contentType: string | undefined): void {
  if (contentType === 'application/json') return;
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

function tooLarge(): ServiceError {
  return new ServiceError('payload_too_large', `the request body must be at most ${MAX_BODY_BYTES} bytes`, {
    closeConnection: true,
  });
}

/** A body being read; `complete` turns true once the whole body arrived (else the connection must close). */
export interface BodyReader {
  body: Promise<Buffer>;
  progress: { complete: boolean };
}

/**
 * Starts reading at once (listeners attached in the request's own tick, the cheapest way through
 * Node's stream machinery); the router awaits `body` only after its earlier checks passed.
 * The callbacks are inline and anonymous on purpose: tsx keeps function names by wrapping each
 * named closure in a defineProperty call, which showed up per request in profiles.
 */
export function startReadingBody(request: IncomingMessage, limit = MAX_BODY_BYTES): BodyReader {
  const progress = { complete: false };
  if (Number(request.headers['content-length']) > limit) {
    const body = Promise.reject(tooLarge());
    body.catch(() => {});
    return { body, progress };
  }

  const body = new Promise<Buffer>((resolve, reject) => {
    let first: Buffer | undefined;
    let chunks: Buffer[] | undefined;
    let received = 0;
    request.on('data', (chunk: Buffer) => {
      if (received > limit) return; // over the limit already: paused, nothing more is kept
      received += chunk.length;
      if (received > limit) {
        // Stop buffering; the router answers 413 and closes the connection.
        request.pause();
        reject(tooLarge());
      } else if (first === undefined) {
        first = chunk;
      } else {
        chunks ??= [first];
        chunks.push(chunk);
      }
    });
    request.once('end', () => {
      progress.complete = true;
      resolve(chunks ? Buffer.concat(chunks) : (first ?? Buffer.alloc(0)));
    });
    // A client that goes away mid-body: 'close' without 'end'.
    request.once('close', () => {
      if (!progress.complete) {
        reject(new ServiceError('invalid_request', 'the request body was not received completely'));
      }
    });
  });
  // Earlier checks may answer without awaiting the body.
  body.catch(() => {});
  return { body, progress };
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
  // Nesting deeper than the limit needs more than 2 × limit characters.
  if (text.length > 2 * MAX_JSON_DEPTH && depthExceededAt(text, MAX_JSON_DEPTH) !== -1) {
    throw new ServiceError('invalid_request', `the request body must nest at most ${MAX_JSON_DEPTH} levels`);
  }
  return value as Record<string, unknown>;
}
