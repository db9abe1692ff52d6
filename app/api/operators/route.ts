import { audit } from '@/lib/audit/server';
import { createOperator, listOperators, OperatorChangeError } from '@/lib/auth/operators';
import { createOperatorSchema } from '@/lib/auth/operators.schema';
import { consoleFailure } from '@/lib/console/errors';
import { operatorRoute, readJsonBody } from '@/lib/console/route-handler';
import { describeFieldErrors, fieldErrors } from '@/lib/validation/field-errors';

export const GET = operatorRoute('operators.list', 'operators:manage', async () => ({
  body: { operators: await listOperators() },
}));

export const POST = operatorRoute(
  'operators.create',
  'operators:manage',
  async ({ request, operator, requestId }) => {
    const body = await readJsonBody(request);
    if ('failure' in body) return { status: body.failure.status, body: body.failure.body };
    const parsed = createOperatorSchema.safeParse(body.value);
    if (!parsed.success) {
      const fields = fieldErrors(parsed.error);
      const failure = consoleFailure(
        400,
        'invalid_request',
        `Check the input: ${describeFieldErrors(fields)}.`,
        {
          fields,
        },
      );
      return { status: failure.status, body: failure.body };
    }
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
