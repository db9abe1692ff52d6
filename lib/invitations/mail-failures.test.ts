import { createServer, type Server, type Socket } from 'node:net';
import { Writable } from 'node:stream';
import pino from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import { testClock } from '@/lib/clock';
import { createInvitationMailer } from '@/lib/invitations/mail';
import { logRedaction } from '@/lib/log-redaction';
import { startSmtpReceiver } from '@/lib/testing/smtp-receiver';

// How a delivery fails, against real sockets: a mail server that is not there, one that never
// answers, one that refuses the console's login. Each comes back as a reason in the console's words
// within SMTP_TIMEOUT_MS, never as a thrown error, and SMTP_URL's password is in no log line. The
// whole delivery's bound runs on a clock this file moves.
const clock = testClock();
const logLines: string[] = [];
const logger = pino(
  { level: 'info', redact: logRedaction },
  new Writable({
    write(chunk, _encoding, done) {
      logLines.push(String(chunk));
      done();
    },
  }),
);
const email = {
  to: 'someone@mail-failures.example',
  link: 'http://127.0.0.1:3000/invitation#not-a-real-secret-but-one-all-the-same',
  invitedBy: { name: 'An admin', email: 'admin@mail-failures.example' },
  role: 'viewer' as const,
  expiresAt: new Date(clock.now() + 3_600_000).toISOString(),
};
const mailerAt = (url: string, timeoutMs = 3_000) =>
  createInvitationMailer({ url, from: 'console@mail-failures.example', timeoutMs }, logger, clock);

/** A TCP server that accepts connections and never says a word (a stalled mail server). */
async function silentServer(): Promise<{ port: number; close: () => Promise<void> }> {
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    port,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** A port nothing listens on (bound a moment, then let go). */
async function closedPort(): Promise<number> {
  const server = await silentServer();
  await server.close();
  return server.port;
}

const receiver = await startSmtpReceiver({ login: { user: 'console', pass: 'smtp-right-password' } });
afterAll(() => receiver.close());

describe('an invitation email that cannot be delivered', () => {
  it('says the mail server refused the connection when nothing listens there', async () => {
    const port = await closedPort();
    const mail = await mailerAt(`smtp://127.0.0.1:${port}`).send(email, 'request-closed');
    expect(mail).toEqual({
      status: 'failed',
      reason: `the mail server at 127.0.0.1:${port} refused the connection`,
    });
  });

  it('gives up within SMTP_TIMEOUT_MS when the mail server never answers', async () => {
    const stalled = await silentServer();
    try {
      // A minute: nodemailer's own timeouts (on real time, the same length) stay out of the way, so
      // the delivery ends only when this clock says so.
      const sending = mailerAt(`smtp://127.0.0.1:${stalled.port}`, 60_000).send(email, 'request-stalled');
      let settled = false;
      void sending.then(() => {
        settled = true;
      });
      await clock.sleeping();
      await clock.advance(59_999);
      expect(settled, 'gave up before SMTP_TIMEOUT_MS').toBe(false);
      await clock.advance(1);
      expect(await sending).toEqual({
        status: 'failed',
        reason: `the mail server at 127.0.0.1:${stalled.port} did not answer within 60 s`,
      });
    } finally {
      await stalled.close();
    }
  });

  it("says the console's login was refused, and logs no part of SMTP_URL's password", async () => {
    const wrong = 'smtp-wrong-password-7Qx';
    const mail = await mailerAt(receiver.url({ user: 'console', pass: wrong })).send(email, 'request-login');
    expect(mail).toEqual({
      status: 'failed',
      reason: `the mail server at 127.0.0.1:${receiver.port} refused the console's credentials (SMTP 535): check SMTP_URL`,
    });
    const logged = logLines.join('');
    expect(logged).toContain('request-login');
    expect(logged).not.toContain(wrong);
    expect(logged).not.toContain('not-a-real-secret');

    // The right login delivers.
    const sent = await mailerAt(receiver.url()).send(email, 'request-right');
    expect(sent).toEqual({ status: 'sent' });
    expect(receiver.to(email.to)).toHaveLength(1);
    expect(logLines.join('')).not.toContain('smtp-right-password');
  });
});
