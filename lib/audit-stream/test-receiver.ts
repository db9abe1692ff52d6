/**
 * A real HTTP receiver for the stream's tests (node:http on loopback): it records every request it
 * read in full, answers as the test's plan says (a status, a Retry-After, a delay on its clock, or
 * never), can go down and come back on the same port, and tells a test when it has taken enough
 * (accepting) instead of being polled.
 */
import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type Clock, realClock, type TestClock } from '@/lib/clock';

export interface ReceivedBatch {
  headers: IncomingHttpHeaders;
  body: string;
  /** The objects of an NDJSON body, one per line. */
  objects: Array<{ idempotency_key: string; id: number; revision: number } & Record<string, unknown>>;
  /** The status it was answered with; null while unanswered (or never: the sender died). */
  status: number | null;
  /** On the receiver's clock. */
  receivedAt: number;
}

export interface Answer {
  status: number;
  retryAfter?: string;
  delayMs?: number;
  /** Never answer (the sender is about to be killed). */
  hang?: boolean;
}

export async function startReceiver(
  plan: (index: number, batch: ReceivedBatch) => Answer = () => ({ status: 200 }),
  clock: Clock = realClock,
) {
  const batches: ReceivedBatch[] = [];
  let waiters: Array<{ done: () => boolean; resolve: () => void }> = [];
  const answered = () => {
    const ready = waiters.filter((waiter) => waiter.done());
    waiters = waiters.filter((waiter) => !ready.includes(waiter));
    for (const waiter of ready) waiter.resolve();
  };
  let inFlight = 0;
  let maxInFlight = 0;
  const hanging: ServerResponse[] = [];
  let answerOf = plan;
  const server: Server = createServer((req, res) => {
    inFlight += 1;
    maxInFlight = Math.max(maxInFlight, inFlight);
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const batch: ReceivedBatch = {
        headers: req.headers,
        body,
        objects: body
          .split('\n')
          .filter((line) => line.trim() !== '')
          .map((line) => JSON.parse(line)),
        status: null,
        receivedAt: clock.now(),
      };
      batches.push(batch);
      const answer = answerOf(batches.length - 1, batch);
      if (answer.hang) {
        hanging.push(res);
        return;
      }
      void clock.sleep(answer.delayMs ?? 0).then(() => {
        batch.status = answer.status;
        inFlight -= 1;
        res.writeHead(answer.status, answer.retryAfter ? { 'retry-after': answer.retryAfter } : {});
        res.end();
        answered();
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  const accepted = () =>
    batches.filter((batch) => batch.status !== null && batch.status < 300).flatMap((batch) => batch.objects);
  return {
    url: new URL(`http://127.0.0.1:${port}/ingest`),
    batches,
    maxInFlight: () => maxInFlight,
    /** The objects of every batch answered 2xx, in the order received. */
    accepted,
    /** Resolves once `done` holds of what was accepted, looked at as each answer goes out. */
    accepting(done: (objects: ReceivedBatch['objects']) => boolean): Promise<void> {
      return new Promise((resolve) => {
        waiters.push({ done: () => done(accepted()), resolve });
        answered();
      });
    },
    plan(next: (index: number, batch: ReceivedBatch) => Answer) {
      answerOf = next;
    },
    async down() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
    async up() {
      await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
    },
    async close() {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

export type Receiver = Awaited<ReturnType<typeof startReceiver>>;

/**
 * Moves `clock` on whenever what runs on it sleeps, to the end of the earliest sleep: time passes
 * only while the code waits for it, as fast as the real I/O between allows. stop() ends it.
 */
export function keepTime(clock: TestClock): { stop(): void } {
  let stopped = false;
  void (async () => {
    while (!stopped) {
      await clock.sleeping();
      if (!stopped) await clock.next();
    }
  })();
  return {
    stop() {
      stopped = true;
    },
  };
}
