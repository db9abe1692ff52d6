import { describe, expect, it } from 'vitest';
import { invitationMessage } from './mail-message';

const email = {
  to: 'new@example.com',
  link: 'https://console.example.com/invitation#abc_DEF-123',
  invitedBy: { name: 'Ada <b>Lovelace</b> & "co"', email: 'ada@example.com' },
  role: 'support' as const,
  expiresAt: '2026-11-30T14:05:00.000Z',
};

describe('the invitation email', () => {
  it('names who invited them, as what, the link and until when, in text and HTML', () => {
    const message = invitationMessage(email);
    expect(message.subject).toBe('Your invitation to the User Group Console');
    expect(message.text).toContain(
      'Ada <b>Lovelace</b> & "co" (ada@example.com) invited you to the User Group Console as support.',
    );
    expect(message.text).toContain(`\n${email.link}\n`);
    expect(message.text).toContain('until Monday, 30 November 2026, 14:05 UTC');
    expect(message.html).toContain(`<a href="${email.link}">`);
    expect(message.html).toContain('until Monday, 30 November 2026, 14:05 UTC');
  });

  it('escapes every value it places in the HTML', () => {
    const { html } = invitationMessage(email);
    expect(html).toContain('Ada &lt;b&gt;Lovelace&lt;/b&gt; &amp; &quot;co&quot; (ada@example.com)');
    expect(html).not.toContain('<b>');
  });

  it('names the address alone when the inviter has no other name', () => {
    const { text } = invitationMessage({
      ...email,
      invitedBy: { name: 'ada@example.com', email: 'ada@example.com' },
      role: null,
    });
    expect(text).toContain('ada@example.com invited you to the User Group Console.');
  });
});
