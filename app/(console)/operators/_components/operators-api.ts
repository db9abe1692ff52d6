/** The operators page's calls to /api/operators, through the console's one JSON sender. */
import type { CreateOperatorRequest, UpdateOperatorRequest } from '@/lib/auth/operators.schema';
import { sendJson } from '@/lib/console-api/client';

export const operatorsApi = {
  create: (body: CreateOperatorRequest) => sendJson('POST', '/api/operators', body),
  update: (id: string, body: UpdateOperatorRequest) =>
    sendJson('PATCH', `/api/operators/${encodeURIComponent(id)}`, body),
};
