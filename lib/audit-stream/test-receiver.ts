/**
 * A real HTTP receiver for the stream's tests (node:http on loopback): it records every request it
 * read in full, answers as the test's plan says (a status, a Retry-After, a delay, or never), and can
 * go down and come back on the same port.
 */
import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedBatch {
  headers: IncomingHttpHeaders;
  body: string;
  /** The objects of an NDJSON body, one per line. */
  objects: Array<{ idempotency_key: string; id: number; revision: number } & Record<string, unknown>>;
  /** The status it was answered with; null while unanswered (or never: the sender died). */
  status: number | null;
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
) {
  const batches: ReceivedBatch[] = [];
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
        receivedAt: Date.now(),
      };
      batches.push(batch);
      const answer = answerOf(batches.length - 1, batch);
      if (answer.hang) {
        hanging.push(res);
        return;
      }
      setTimeout(() => {
        batch.status = answer.status;
        inFlight -= 1;
        res.writeHead(answer.status, answer.retryAfter ? { 'retry-after': answer.retryAfter } : {});
        res.end();
      }, answer.delayMs ?? 0);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: new URL(`http://127.0.0.1:${port}/ingest`),
    batches,
    maxInFlight: () => maxInFlight,
    /** The objects of every batch answered 2xx, in the order received. */
    accepted: () =>
      batches
        .filter((batch) => batch.status !== null && batch.status < 300)
        .flatMap((batch) => batch.objects),
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

/** Polls until `done` answers true, or fails after `timeoutMs`. */
export async function eventually(
  done: () => boolean | Promise<boolean>,
  timeoutMs = 20_000,
  what = 'the condition',
) {
  const until = Date.now() + timeoutMs;
  while (!(await done())) {
    if (Date.now() > until) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
