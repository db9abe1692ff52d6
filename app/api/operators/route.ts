import { createOperator, listOperators } from '@/lib/auth/operators';
import { consoleRoutes } from '@/lib/console-api/routes';
import { consoleRoute } from '@/lib/server/route';

export const GET = consoleRoute(consoleRoutes.listOperators, async ({ server }) => ({
  operators: await listOperators(server),
}));

/** Adds an operator; on record first, so no operator appears that the log does not name. */
export const POST = consoleRoute(
  consoleRoutes.createOperator,
  async ({ request, operator, requestId, body, server }) => {
    const created = await server.auditLog.onRecord(
      { action: 'operator.create', operator, requestId, detail: `${body.email} as ${body.role}` },
      () => createOperator(server, body, request.headers),
    );
    return Response.json({ operator: created }, { status: 201 });
  },
);
