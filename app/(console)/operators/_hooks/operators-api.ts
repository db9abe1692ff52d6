/** The operators page's calls to /api/operators, each answer parsed with its schema. */
import {
  type CreateOperatorRequest,
  type CreateOperatorResult,
  createOperatorResultSchema,
  type UpdateOperatorRequest,
  type UpdateOperatorResult,
  updateOperatorResultSchema,
} from '@/lib/auth/operators.schema';
import { callConsoleRoute } from '@/lib/console-api/client';

export const operatorsApi = {
  create: (body: CreateOperatorRequest): Promise<CreateOperatorResult> =>
    callConsoleRoute('POST', '/api/operators', body, createOperatorResultSchema),
  update: (id: string, body: UpdateOperatorRequest): Promise<UpdateOperatorResult> =>
    callConsoleRoute('PATCH', `/api/operators/${encodeURIComponent(id)}`, body, updateOperatorResultSchema),
};
