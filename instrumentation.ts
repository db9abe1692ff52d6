/**
 * Next calls register() once when a server starts: the console's server is built then, not on the
 * first request, so bulk jobs a restart interrupted resume at once (lib/jobs/runner.ts).
 */
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== 'nodejs') return;
  const { consoleServer } = await import('@/lib/server');
  // A server that cannot be built (say, a configuration error) is reported by the first request
  // that needs it, in the documented error shape; starting the HTTP server must not fail on it.
  await consoleServer().catch(() => undefined);
}
