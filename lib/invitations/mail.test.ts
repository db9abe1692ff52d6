import { Writable } from 'node:stream';
import pino from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import type { AuditAction } from '@/lib/audit/actions';
import { logRedaction } from '@/lib/log-redaction';
import { startRouteTestConsole } from '@/lib/testing/route-harness';
import { startSmtpReceiver } from '@/lib/testing/smtp-receiver';

// Invitations by email: the console (SMTP_URL set) emails the link to a real SMTP server started
// here; the message is read back and its link accepted. A refused delivery is the admin's to read,
// beside the link, which still works. Nothing that opens the account reaches the log or the audit log.
const receiver = await startSmtpReceiver();
const FROM = 'User Group Console <console@mail.example>';
const harness = await startRouteTestConsole('invitations-mail', 3974, {
  SMTP_URL: receiver.url(),
  SMTP_FROM: FROM,
});
const { params, server } = harness;
const { listAuditEvents } = await import('@/lib/audit/store');
const { createInvitationMailer } = await import('@/lib/invitations/mail');
const handleInvitationAccept = (await import('@/app/api/invitation/accept/route')).POST;
const handleInvitationLookup = (await import('@/app/api/invitation/route')).POST;
const operatorsRoute = await import('@/app/api/operators/route');
const resendRoute = (await import('@/app/api/operators/[id]/invitation/route')).POST;

// The console's mailer, logging through pino with the console's redaction into lines kept here.
const logLines: string[] = [];
const logStream = new Writable({
  write(chunk, _encoding, done) {
    logLines.push(String(chunk));
    done();
  },
});
if (!server.config.mail) throw new Error('SMTP_URL did not configure mail');
server.invitationMailer = createInvitationMailer(
  server.config.mail,
  pino({ level: 'info', redact: logRedaction }, logStream),
  server.clock,
);

afterAll(async () => {
  await harness.close();
  await receiver.close();
});

const PASSWORD = 'chosen-from-the-email';
const secretOf = (link: string) => new URL(link).hash.slice(1);

interface Invited {
  operator: { id: string };
  invitation: {
    link: string;
    expiresAt: string;
    mail: { status: 'sent' } | { status: 'failed'; reason: string } | null;
  };
}

async function invite(email: string, role = 'support'): Promise<Invited> {
  const response = await operatorsRoute.POST(
    harness.request('POST', { email, name: `Name of ${email}`, role }),
    params({}),
  );
  expect(response.status).toBe(201);
  return (await response.json()) as Invited;
}

async function entries(action: AuditAction) {
  return (await listAuditEvents(server.database, { action })).events;
}

/** The one link in a text: the console's address, /invitation, a fragment. */
const linkIn = (text: string) => /http:\/\/\S+\/invitation#[\w-]+/.exec(text)?.[0] ?? null;

describe('invitations by email', () => {
  it('emails the link, who invited them and until when; the link read back from the message lets them in', async () => {
    const email = 'emailed@invitations-mail.example';
    const { invitation } = await invite(email, 'viewer');
    expect(invitation.mail).toEqual({ status: 'sent' });

    const [message, ...others] = receiver.to(email);
    expect(others).toEqual([]);
    const parsed = message?.parsed;
    expect(parsed?.to && !Array.isArray(parsed.to) ? parsed.to.value[0]?.address : null).toBe(email);
    expect(parsed?.from?.value[0]).toEqual({ name: 'User Group Console', address: 'console@mail.example' });
    expect(parsed?.subject).toBe('Your invitation to the User Group Console');
    const text = parsed?.text ?? '';
    expect(text).toContain(
      `First admin (${harness.admin.email}) invited you to the User Group Console as viewer.`,
    );
    expect(text).toMatch(/works once, until \w+day, \d+ \w+ \d{4}, \d\d:\d\d UTC/);
    expect(parsed?.html || '').toContain(`href="${invitation.link}"`);

    // The link of the message is the one the admin was shown, and it works.
    const link = linkIn(text);
    expect(link).toBe(invitation.link);
    const secret = secretOf(link ?? '');
    const looked = await handleInvitationLookup(harness.request('POST', { secret }, { cookie: '' }));
    expect(await looked.json()).toMatchObject({ email, role: 'viewer' });
    const accepted = await handleInvitationAccept(
      harness.request('POST', { secret, password: PASSWORD, confirmPassword: PASSWORD }, { cookie: '' }),
    );
    expect(accepted.status).toBe(200);
    expect(await accepted.json()).toEqual({ email });

    // On record as emailed; the secret is in neither the audit log nor the console's log.
    const made = (await entries('invitation.create')).find((entry) => entry.detail?.startsWith(email));
    expect([made?.outcome, made?.detail]).toEqual(['success', `${email}: new operator; emailed`]);
    const audit = await server.database.db.selectFrom('audit_event').selectAll().execute();
    expect(JSON.stringify(audit)).not.toContain(secret);
    expect(logLines.join('')).toContain('emailed an invitation link');
    expect(logLines.join('')).not.toContain(secret);
  });

  it('emails a new link when one is sent again; the earlier one stops working', async () => {
    const email = 'again@invitations-mail.example';
    const { operator, invitation } = await invite(email);
    const resent = await resendRoute(harness.request('POST'), params({ id: operator.id }));
    expect(resent.status).toBe(200);
    const again = (await resent.json()) as Invited['invitation'];
    expect(again.mail).toEqual({ status: 'sent' });
    const links = receiver.to(email).map((mail) => linkIn(mail.parsed.text ?? ''));
    expect(links).toEqual([invitation.link, again.link]);
    const old = await handleInvitationLookup(
      harness.request('POST', { secret: secretOf(invitation.link) }, { cookie: '' }),
    );
    expect(old.status).toBe(404);
  });

  it('tells the admin when the mail server refuses, and still answers the link, which works', async () => {
    const email = 'refused@invitations-mail.example';
    receiver.refuseRecipients('5.1.1 Mailbox unavailable');
    let invited: Invited;
    try {
      invited = await invite(email);
    } finally {
      receiver.refuseRecipients(null);
    }
    const { invitation } = invited;
    expect(invitation.mail).toEqual({
      status: 'failed',
      reason: "the mail server refused the recipient's address (SMTP 550)",
    });
    expect(receiver.to(email)).toEqual([]);
    const secret = secretOf(invitation.link);
    const looked = await handleInvitationLookup(harness.request('POST', { secret }, { cookie: '' }));
    expect(looked.status).toBe(200);

    const made = (await entries('invitation.create')).find((entry) => entry.detail?.startsWith(email));
    expect([made?.outcome, made?.detail]).toEqual([
      'success',
      `${email}: new operator; not emailed: the mail server refused the recipient's address (SMTP 550)`,
    ]);
    // The mail server's own words are for the log (with the request id), not for the admin.
    const failure = logLines.find((line) => line.includes('could not email an invitation link'));
    expect(failure).toContain('Mailbox unavailable');
    expect(failure).toContain('"requestId"');
    expect(logLines.join('')).not.toContain(secret);
  });
});
