import 'server-only';
import * as z from 'zod/mini';
import { APPROVAL_REASON_FIELD } from '@/lib/approvals/contract';
import { ConsoleError } from '@/lib/console-error';
import { fieldErrors } from '@/lib/validation/field-errors';
import { invalidRequest } from './errors';
import { readBodyText, readJson } from './request-body';

/**
 * The bodies of routes whose action may wait for a second person (lib/server/approval-frame.ts):
 * the action's own fields, and beside them the requester's reason.
 */

/** The body of a route that may need approval: the action's fields, and the requester's reason. */
export async function readBodyWithReason<Body>(
  request: Request,
  schema: z.core.$ZodType<Body>,
  limit: number | undefined,
): Promise<{ body: Body; reason: unknown }> {
  const value = await readJson(request, limit);
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

/**
 * The requester's reason for a route that reads no body of its own (an invitation sent again):
 * `{ approvalReason }` when one is sent as JSON; nothing when the request carries no body.
 */
export async function readReasonAlone(request: Request, limit: number | undefined): Promise<unknown> {
  const json = /^application\/json\s*(?:;|$)/i.test(request.headers.get('content-type') ?? '');
  if (request.body === null || !json) return undefined;
  const text = await readBodyText(request, limit);
  if ('tooLarge' in text) throw new ConsoleError('body_too_large', 'The request is too large.');
  if (text.text.trim() === '') return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text.text);
  } catch {
    throw new ConsoleError('invalid_request', 'The request body is not valid JSON.');
  }
  const parsed = z.safeParse(z.strictObject({ [APPROVAL_REASON_FIELD]: z.unknown() }), value);
  if (!parsed.success) throw invalidRequest(fieldErrors(parsed.error));
  return parsed.data[APPROVAL_REASON_FIELD];
}
