/**
 * A log pipe whose reader is gone (the supervisor or terminal died, `npm start | head` ended): its
 * lines are lost and the console keeps serving. Without a listener each EPIPE is an uncaught
 * exception, which Next's handler logs to the same closed pipe, and so on: an orphaned console
 * spun a full core for an hour and did not stop on SIGTERM (found after an e2e run, 2026-11-28).
 * Any other stream error is thrown as before.
 */
export function keepServingWithoutLogPipe(
  streams: NodeJS.WritableStream[] = [process.stdout, process.stderr],
): void {
  for (const stream of streams)
    stream.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code !== 'EPIPE') throw error;
    });
}
