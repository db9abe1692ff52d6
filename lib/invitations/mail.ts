import 'server-only';
import { createTransport } from 'nodemailer';
import type { Logger } from 'pino';
import { type Clock, realClock } from '@/lib/clock';
import type { MailConfig } from '@/lib/config';
import { type InvitationEmail, invitationMessage } from '@/lib/invitations/mail-message';
import type { InvitationMail } from '@/lib/operators/contract';
import { redactUrlsInText } from '@/lib/redact-url';

/**
 * Invitation links by email (SMTP_URL, nodemailer): one message per invitation, its delivery bounded
 * by SMTP_TIMEOUT_MS from connecting to the last reply. A failure never throws: it comes back as a
 * reason in the console's own words, without the mail server's text or SMTP_URL's credentials (those
 * go to the log with the request id, the URL redacted), so that the admin still gets the link. The
 * whole delivery's bound runs on `clock`, so that a test moves it on rather than waits it out.
 */
export interface InvitationMailer {
  send(email: InvitationEmail, requestId: string): Promise<InvitationMail>;
}

interface SmtpError {
  code?: string;
  responseCode?: number;
  command?: string;
  message?: string;
}

export function createInvitationMailer(
  config: MailConfig,
  logger: Pick<Logger, 'info' | 'warn'>,
  clock: Pick<Clock, 'sleep'> = realClock,
): InvitationMailer {
  const server = new URL(config.url);
  const where = `${server.hostname}${server.port ? `:${server.port}` : ''}`;
  const transport = createTransport({
    url: config.url,
    connectionTimeout: config.timeoutMs,
    greetingTimeout: config.timeoutMs,
    socketTimeout: config.timeoutMs,
    dnsTimeout: config.timeoutMs,
    // nodemailer's own logging would print the conversation, the link included: off.
    logger: false,
    debug: false,
  });
  return {
    async send(email, requestId) {
      const message = invitationMessage(email);
      const delivered = new AbortController();
      const timedOut = new AbortController();
      void clock.sleep(config.timeoutMs, delivered.signal).then(() => {
        if (!delivered.signal.aborted) timedOut.abort(new DOMException('delivery timed out', 'TimeoutError'));
      });
      try {
        await transport.sendMail({
          from: config.from,
          to: email.to,
          subject: message.subject,
          text: message.text,
          html: message.html,
          // The whole delivery, however the time is spent (a slow DNS, a server that stalls mid-reply).
          signal: timedOut.signal,
        });
        logger.info({ requestId }, 'emailed an invitation link');
        return { status: 'sent' };
      } catch (caught) {
        const error = (caught ?? {}) as SmtpError;
        logger.warn(
          {
            requestId,
            smtp: {
              code: error.code,
              responseCode: error.responseCode,
              command: error.command,
              message: redactUrlsInText(String(error.message ?? '')),
            },
          },
          'could not email an invitation link',
        );
        return { status: 'failed', reason: failureReason(error, where, config.timeoutMs) };
      } finally {
        delivered.abort();
      }
    },
  };
}

/** What went wrong, in the console's words: the mail server's own text stays in the log. */
function failureReason(error: SmtpError, where: string, timeoutMs: number): string {
  const reply = error.responseCode ? ` (SMTP ${error.responseCode})` : '';
  switch (error.code) {
    case 'ETIMEDOUT':
    case 'EABORT':
      return `the mail server at ${where} did not answer within ${Math.ceil(timeoutMs / 1000)} s`;
    case 'EDNS':
      return `the mail server's name in SMTP_URL (${where}) could not be resolved`;
    case 'ETLS':
    case 'EREQUIRETLS':
      return `no secure connection could be made with the mail server at ${where}`;
    case 'EAUTH':
    case 'ENOAUTH':
      return `the mail server at ${where} refused the console's credentials${reply}: check SMTP_URL`;
    case 'EENVELOPE':
      return /MAIL FROM/i.test(error.command ?? '')
        ? `the mail server refused the sender address (SMTP_FROM)${reply}`
        : `the mail server refused the recipient's address${reply}`;
    case 'ECONNECTION':
    case 'ESOCKET':
      return /ECONNREFUSED/.test(error.message ?? '')
        ? `the mail server at ${where} refused the connection`
        : `the connection to the mail server at ${where} failed`;
    default:
      return `the mail server at ${where} refused the message${reply}`;
  }
}
