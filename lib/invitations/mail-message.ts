/**
 * The invitation email's words: whom it is for, who invited them, the link and until when it works,
 * as plain text and as simple HTML (every value escaped). Plain module, no I/O: the sender is
 * lib/invitations/mail.ts.
 */
import type { Role } from '@/lib/roles';
import { formatExpiry } from '@/lib/time';

export interface InvitationEmail {
  /** The invited operator's address. */
  to: string;
  /** The one-time link, `<CONSOLE_URL>/invitation#<secret>`. */
  link: string;
  invitedBy: { name: string; email: string };
  role: Role | null;
  /** ISO 8601: when the link stops working. */
  expiresAt: string;
}

export interface InvitationMessage {
  subject: string;
  text: string;
  html: string;
}

const htmlEntities: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** Text made safe to place in HTML, inside an element or a quoted attribute. */
const escapeHtml = (value: string): string => value.replace(/[&<>"']/g, (c) => htmlEntities[c] ?? c);

/** "Ada Lovelace (ada@example.com)", or the address alone when the name is the address. */
function inviter({ name, email }: InvitationEmail['invitedBy']): string {
  return name.trim() === '' || name === email ? email : `${name} (${email})`;
}

export function invitationMessage(email: InvitationEmail): InvitationMessage {
  const by = inviter(email.invitedBy);
  const as = email.role ? ` as ${email.role}` : '';
  const until = formatExpiry(email.expiresAt, 'long');
  const subject = 'Your invitation to the User Group Console';
  const text = [
    'Hello,',
    '',
    `${by} invited you to the User Group Console${as}.`,
    '',
    'Open this link to choose your password and sign in:',
    email.link,
    '',
    `The link works once, until ${until}. After that, ask ${email.invitedBy.email} for a new one.`,
    '',
    'If you did not expect this invitation, ignore this email: nothing happens without the link.',
  ].join('\n');
  const link = escapeHtml(email.link);
  const html = [
    '<!doctype html>',
    '<html><body style="font-family: sans-serif; line-height: 1.5">',
    `<p>Hello,</p>`,
    `<p>${escapeHtml(by)} invited you to the User Group Console${escapeHtml(as)}.</p>`,
    `<p><a href="${link}">Choose your password and sign in</a></p>`,
    `<p>Or copy this link into your browser:<br><code>${link}</code></p>`,
    `<p>The link works once, until ${escapeHtml(until)}. After that, ask ${escapeHtml(email.invitedBy.email)} for a new one.</p>`,
    '<p>If you did not expect this invitation, ignore this email: nothing happens without the link.</p>',
    '</body></html>',
  ].join('\n');
  return { subject, text, html };
}
