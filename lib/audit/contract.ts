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

export const auditPageSchema = z.object({
  events: z.array(auditEventSchema),
  total: z.number(),
  page: z.number(),
  pageCount: z.number(),
  pageSize: z.number(),
});
