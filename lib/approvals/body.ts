import 'server-only';
import * as z from 'zod/mini';
import { APPROVAL_REASON_FIELD } from '@/lib/approvals/contract';
import { invalidRequest } from '@/lib/server/errors';
import { readJson } from '@/lib/server/request-body';
import { fieldErrors } from '@/lib/validation/field-errors';

/**
 * The bodies of routes whose action may wait for a second person (lib/approvals/frame.ts):
 * the action's own fields, and beside them the requester's reason.
 */

/** The body of a route that may need approval: the action's fields, and the requester's reason. */
export async function readBodyWithReason<Body>(
  request: Request,
  schema: z.core.$ZodType<Body>,
  limit: number | undefined,
): Promise<{ body: Body; reason: unknown }> {
  // No body at all reads as `{}`: a route whose body is only the reason (an invitation sent again).
  const value = request.body === null ? {} : await readJson(request, limit);
  let reason: unknown;
  let rest = value;
  if (value && typeof value === 'object' && !Array.isArray(value) && APPROVAL_REASON_FIELD in value) {
    const { [APPROVAL_REASON_FIELD]: given, ...others } = value as Record<string, unknown>;
    reason = given;
    rest = others;
  }
  const parsed = z.safeParse(schema, rest);
  if (!parsed.success) throw invalidRequest(fieldErrors(parsed.error));
  return { body: parsed.data, reason };
}
