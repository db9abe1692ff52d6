import { createOperator, listOperators } from '@/lib/auth/operators';
import { createOperatorSchema } from '@/lib/auth/operators.schema';
import { ConsoleError } from '@/lib/console-api/console-error';
import { audit } from '@/lib/server/audit-log';
import { consoleRoute } from '@/lib/server/route';

export const GET = consoleRoute(
  { name: 'operators.list', permission: 'operators:manage' },
  async ({ server }) => ({
    operators: await listOperators(server),
  }),
);

export const POST = consoleRoute(
  { name: 'operators.create', permission: 'operators:manage', body: createOperatorSchema },
  async ({ request, operator, requestId, body, server }) => {
    const record = (outcome: string) =>
      audit({
        action: 'operator.create',
        operator,
        outcome,
        requestId,
        detail: `${body.email} as ${body.role}`,
      });
    try {
      const created = await createOperator(server, body, request.headers);
      await record('success');
      return Response.json({ operator: created }, { status: 201 });
    } catch (error) {
      if (error instanceof ConsoleError) await record(error.code);
      throw error;
    }
  },
);
