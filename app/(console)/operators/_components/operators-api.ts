/**
 * The operators page's calls to /api/operators; failures become ConsoleApiErrors with the
 * console's message and field errors, like every other console call.
 */

import type { CreateOperatorRequest, UpdateOperatorRequest } from '@/lib/auth/operators.schema';
import { ConsoleApiError } from '@/lib/console-api/client';
import { consoleErrorBodySchema } from '@/lib/console-api/contract';

async function send(method: 'POST' | 'PATCH', path: string, body: unknown): Promise<unknown> {
  let response: Response;
  try {
    response = await fetch(path, {
      method,
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
      cache: 'no-store',
    });
  } catch {
    throw new ConsoleApiError(
      'internal',
      'The console could not be reached. Check your connection and retry.',
    );
  }
  const payload: unknown = await response.json().catch(() => undefined);
  if (!response.ok) {
    const parsed = consoleErrorBodySchema.safeParse(payload);
    if (parsed.success) {
      const { code, message, fields } = parsed.data.error;
      throw new ConsoleApiError(code, message, fields);
    }
    throw new ConsoleApiError('internal', `The console answered ${response.status} without an explanation.`);
  }
  return payload;
}

export const operatorsApi = {
  create: (body: CreateOperatorRequest) => send('POST', '/api/operators', body),
  update: (id: string, body: UpdateOperatorRequest) =>
    send('PATCH', `/api/operators/${encodeURIComponent(id)}`, body),
};
