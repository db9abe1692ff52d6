import { consoleRoutes } from '@/lib/console-api/routes';
import { operatorsToCsv } from '@/lib/operators/csv';
import { listOperators } from '@/lib/operators/store';
import { plural } from '@/lib/plural';
import { consoleRoute } from '@/lib/server/route';

/**
 * Every operator as CSV, for an audit (admins only): on record before it is sent, settled with how
 * many operators it held.
 */
export const GET = consoleRoute(
  { ...consoleRoutes.exportOperators, audit: { action: 'operators.export' } },
  async ({ server, note }) => {
    const operators = await listOperators(server);
    note({ detail: plural(operators.length, 'operator') });
    const now = new Date(server.clock.now()).toISOString();
    const stamp = now.slice(0, 16).replace(/[-:]/g, '').replace('T', '-');
    return new Response(operatorsToCsv(operators, now), {
      headers: {
        'content-type': 'text/csv; charset=utf-8',
        'content-disposition': `attachment; filename="operators-${stamp}.csv"`,
      },
    });
  },
);
