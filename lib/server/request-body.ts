/**
 * Reading a request body with a ceiling enforced while it streams in: a body over the limit is
 * refused after at most `limit` bytes (plus one chunk) were kept, never buffered whole first. The
 * rest is read and dropped, within bounds, so that a client still sending hears the refusal.
 */
import * as z from 'zod/mini';
import { ConsoleError } from '@/lib/console-error';
import { depthExceededAt } from '@/lib/json-depth';
import { MAX_BODY_BYTES } from '@/lib/limits';
import { LINGER_BOUNDS, type LingerBounds } from '@/lib/node-http/lingering-close';
import { JSON_DEPTH_MAX } from '@/lib/user-group-api/contract';
import { fieldErrors } from '@/lib/validation/field-errors';
import { invalidRequest } from './errors';

export type BodyText = { text: string } | { tooLarge: true };

export async function readBodyText(
  request: Request,
  limit = MAX_BODY_BYTES,
  linger: LingerBounds = LINGER_BOUNDS,
): Promise<BodyText> {
  const declared = Number(request.headers.get('content-length') ?? 0);
  if (declared > limit) {
    const reader = request.body?.getReader();
    // More than the bounds would drop: no use reading any of it.
    if (declared - limit > linger.maxBytes) await reader?.cancel().catch(() => {});
    else if (reader) await dropRest(reader, linger);
    return { tooLarge: true };
  }
  if (!request.body) return { text: '' };
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await dropRest(reader, linger);
      return { tooLarge: true };
    }
    chunks.push(value);
  }
  return { text: Buffer.concat(chunks).toString('utf8') };
}

/**
 * Reads and drops the rest of a refused body, up to `maxBytes` or `maxMs`, then cancels. Cancelling
 * at once destroyed the connection while the client was still sending: Node's http client then
 * reported EPIPE instead of the 413 (lib/node-http/lingering-close.ts does the same for the service).
 */
async function dropRest(
  reader: ReadableStreamDefaultReader<Uint8Array>,
  { maxBytes, maxMs }: LingerBounds,
): Promise<void> {
  // A pending read ends (done) when the reader is cancelled.
  const timer = setTimeout(() => void reader.cancel().catch(() => {}), maxMs);
  try {
    for (let dropped = 0; dropped <= maxBytes; ) {
      const { done, value } = await reader.read();
      if (done) return;
      dropped += value.byteLength;
    }
    await reader.cancel();
  } catch {
    // The client went away: nothing left to drop.
  } finally {
    clearTimeout(timer);
  }
}

const megabytes = (bytes: number) => `${Math.round((bytes / 1024 / 1024) * 10) / 10} MiB`;

// application/json, with parameters or none; `\b` also let application/json-patch+json through.
const isJson = (request: Request) =>
  /^application\/json\s*(?:;|$)/i.test(request.headers.get('content-type') ?? '');

/** The body as JSON of any shape; throws ConsoleError (415, 413, 400). */
export async function readJson(request: Request, limit = MAX_BODY_BYTES): Promise<unknown> {
  if (!isJson(request)) {
    throw new ConsoleError(
      'unsupported_media_type',
      'Send the request as JSON (Content-Type: application/json).',
    );
  }
  const body = await readBodyText(request, limit);
  if ('tooLarge' in body) {
    throw new ConsoleError('body_too_large', `The request is larger than ${megabytes(limit)}.`);
  }
  let value: unknown;
  try {
    value = JSON.parse(body.text);
  } catch {
    throw new ConsoleError('invalid_request', 'The request body is not valid JSON.');
  }
  // JSON.parse takes any depth, but JSON.stringify (sending it on, logging it) overflows the stack.
  if (depthExceededAt(body.text, JSON_DEPTH_MAX) >= 0) {
    throw new ConsoleError('invalid_request', `The request body nests deeper than ${JSON_DEPTH_MAX} levels.`);
  }
  return value;
}

/** The body validated with the schema the form uses; throws ConsoleError with field messages. */
export async function parseJson<Body>(
  request: Request,
  schema: z.core.$ZodType<Body>,
  limit = MAX_BODY_BYTES,
): Promise<Body> {
  const parsed = z.safeParse(schema, await readJson(request, limit));
  if (!parsed.success) throw invalidRequest(fieldErrors(parsed.error));
  return parsed.data;
}
