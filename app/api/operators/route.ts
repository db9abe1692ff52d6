import { audit } from '@/lib/audit/server';
import { createOperator, listOperators, OperatorChangeError } from '@/lib/auth/operators';
import { createOperatorSchema } from '@/lib/auth/operators.schema';
import { operatorRoute, parseJsonRequest } from '@/lib/console/route-handler';

export const GET = operatorRoute('operators.list', 'operators:manage', async () => ({
  body: { operators: await listOperators() },
}));

export const POST = operatorRoute(
  'operators.create',
  'operators:manage',
  async ({ request, operator, requestId }) => {
    const parsed = await parseJsonRequest(request, createOperatorSchema);
    if ('failure' in parsed) return { status: parsed.failure.status, body: parsed.failure.body };
    const record = (outcome: string) =>
      audit({
        action: 'operator.create',
        operator,
        outcome,
        requestId,
        detail: `${parsed.data.email} as ${parsed.data.role}`,
      });
    try {
      const created = await createOperator(parsed.data, request.headers);
      await record('success');
      return { status: 201, body: { operator: created } };
    } catch (error) {
      if (!(error instanceof OperatorChangeError)) throw error;
      await record(error.failure.body.error.code);
      return { status: error.failure.status, body: error.failure.body };
    }
  },
);
