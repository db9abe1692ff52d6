import { consoleServer } from '@/lib/server';
import { consoleReadiness } from '@/lib/server/readiness';

/**
 * Readiness: 200 when the console can serve (its database answers, and each configured
 * environment's User Group Service answers the status probe, kept 5 s), else 503, with what failed.
 * No session, like /api/health (the liveness answer, which stays free of I/O): it names states,
 * never a URL, a key or an error's text.
 */
export async function GET(): Promise<Response> {
  const readiness = await consoleReadiness(consoleServer);
  return Response.json(
    { status: readiness.ready ? 'ready' : 'not_ready', ...readiness },
    { status: readiness.ready ? 200 : 503, headers: { 'cache-control': 'no-store' } },
  );
}
