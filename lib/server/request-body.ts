/**
 * Reading a request body with a ceiling enforced while it streams in: a body over the limit is
 * refused after at most `limit` bytes (plus one chunk) were read, never buffered whole first.
 */
import * as z from 'zod/mini';
import { ConsoleError } from '@/lib/console-api/console-error';
import { MAX_BODY_BYTES } from '@/lib/limits';
import { fieldErrors } from '@/lib/validation/field-errors';
import { invalidRequest } from './errors';

export type BodyText = { text: string } | { tooLarge: true };

export async function readBodyText(request: Request, limit = MAX_BODY_BYTES): Promise<BodyText> {
  const declared = Number(request.headers.get('content-length') ?? 0);
  if (declared > limit) {
    await request.body?.cancel().catch(() => {});
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
      await reader.cancel().catch(() => {});
      return { tooLarge: true };
    }
    chunks.push(value);
  }
  return { text: Buffer.concat(chunks).toString('utf8') };
}

const megabytes = (bytes: number) => `${Math.round((bytes / 1024 / 1024) * 10) / 10} MiB`;

const isJson = (request: Request) => /^application\/json\b/i.test(request.headers.get('content-type') ?? '');

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
  try {
    return JSON.parse(body.text);
  } catch {
    throw new ConsoleError('invalid_request', 'The request body is not valid JSON.');
  }
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
