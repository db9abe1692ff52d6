/** What GET /api/audit answers: one page of the audit log, as the audit page lists it. */
import * as z from 'zod/mini';

const text = z.nullable(z.string());

const auditEventSchema = z.object({
  id: z.number(),
  at: z.string(),
  operator_id: text,
  operator_email: text,
  action: z.string(),
  environment: text,
  user_group_id: text,
  user_group_name: text,
  outcome: z.string(),
  request_id: z.string(),
  token_fingerprint: text,
  previous_token_fingerprint: text,
  detail: text,
});

/**
 * Keyset pages: `nextBefore` is the `before` of the next, older page (null on the last), and
 * `previousAfter` the `after` of the newer one. `total` counts up to 1,000 (`totalIsLowerBound`).
 */
export const auditPageSchema = z.object({
  events: z.array(auditEventSchema),
  total: z.number(),
  totalIsLowerBound: z.boolean(),
  pageSize: z.number(),
  nextBefore: z.nullable(z.number()),
  previousAfter: z.nullable(z.number()),
});
