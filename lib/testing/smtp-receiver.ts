/**
 * A real SMTP server for the tests (smtp-server) on loopback: it keeps every message it accepts,
 * raw and parsed (mailparser), so that a test reads back what the console sent and uses its link.
 * It can refuse recipients (as a mail server refuses an address) and ask for a login.
 */
import type { AddressInfo } from 'node:net';
import { type ParsedMail, simpleParser } from 'mailparser';
import { SMTPServer, type SMTPServerOptions } from 'smtp-server';

interface ReceivedMail {
  /** The envelope: who the message was delivered to, as RCPT TO said. */
  envelopeTo: string[];
  raw: Buffer;
  parsed: ParsedMail;
}

export interface SmtpReceiverOptions {
  port?: number;
  /** A login the server asks for; unset, any client may send without one. */
  login?: { user: string; pass: string };
  /** Called with each message as it is accepted (the e2e receiver writes it to a file). */
  onMail?: (mail: ReceivedMail) => void | Promise<void>;
}

export async function startSmtpReceiver({ port = 0, login, onMail }: SmtpReceiverOptions = {}) {
  const received: ReceivedMail[] = [];
  /** While set, every recipient is refused with this reply (code 550). */
  let refusal: string | null = null;
  const options: SMTPServerOptions = {
    // Plain SMTP on loopback: no STARTTLS (its self-signed certificate would fail the client).
    disabledCommands: login ? ['STARTTLS'] : ['STARTTLS', 'AUTH'],
    authOptional: !login,
    allowInsecureAuth: true,
    logger: false,
    onAuth(auth, _session, callback) {
      if (login && auth.username === login.user && auth.password === login.pass)
        return callback(null, { user: auth.username });
      return callback(Object.assign(new Error('Invalid username or password'), { responseCode: 535 }));
    },
    onRcptTo(_address, _session, callback) {
      if (refusal !== null) return callback(Object.assign(new Error(refusal), { responseCode: 550 }));
      return callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks);
        simpleParser(raw)
          .then(async (parsed) => {
            const mail = { envelopeTo: session.envelope.rcptTo.map((rcpt) => rcpt.address), raw, parsed };
            received.push(mail);
            await onMail?.(mail);
            callback();
          })
          .catch((error: Error) => callback(error));
      });
    },
  };
  const server = new SMTPServer(options);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  const listening = (server.server.address() as AddressInfo).port;
  return {
    port: listening,
    /** SMTP_URL of this server (plain, no TLS), with a login when given. */
    url: (credentials = login) =>
      `smtp://${credentials ? `${encodeURIComponent(credentials.user)}:${encodeURIComponent(credentials.pass)}@` : ''}127.0.0.1:${listening}`,
    received,
    /** The messages delivered to an address. */
    to: (address: string) => received.filter((mail) => mail.envelopeTo.includes(address)),
    /** Refuses every recipient with this reply until called with null. */
    refuseRecipients(reply: string | null) {
      refusal = reply;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
