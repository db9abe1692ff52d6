/**
 * Reading a request body with a ceiling enforced while it streams in: a body over the limit is
 * refused after at most `limit` bytes (plus one chunk) were read, never buffered whole first.
 */
export const MAX_BODY_BYTES = 1024 * 1024;

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
