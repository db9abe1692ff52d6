import { describe, expect, it } from 'vitest';
import { parseConfig } from './index';

describe('mail configuration', () => {
  it('sends no email unless SMTP_URL is set', () => {
    expect(parseConfig({}).mail).toBeNull();
  });

  it('reads SMTP_URL with SMTP_FROM, and SMTP_TIMEOUT_MS (5 s unless told)', () => {
    const config = parseConfig({
      SMTP_URL: 'smtps://console:pa55@mail.example.com:465',
      SMTP_FROM: 'User Group Console <console@example.com>',
    });
    expect(config.mail).toEqual({
      url: 'smtps://console:pa55@mail.example.com:465',
      from: 'User Group Console <console@example.com>',
      timeoutMs: 5_000,
    });
    expect(
      parseConfig({ SMTP_URL: 'smtp://127.0.0.1:25', SMTP_FROM: 'a@b.example', SMTP_TIMEOUT_MS: '2000' }).mail
        ?.timeoutMs,
    ).toBe(2_000);
  });

  it('refuses half of it, or a URL that is not smtp(s), without echoing a password', () => {
    expect(() => parseConfig({ SMTP_URL: 'smtp://127.0.0.1:25' })).toThrow(/SMTP_FROM/);
    expect(() => parseConfig({ SMTP_FROM: 'a@b.example' })).toThrow(/SMTP_URL/);
    expect(() => parseConfig({ SMTP_URL: 'smtp://x', SMTP_FROM: 'not an address' })).toThrow(
      /SMTP_FROM must be an email address/,
    );
    const wrong = () =>
      parseConfig({ SMTP_URL: 'http://user:hunter2-secret@mail.example.com', SMTP_FROM: 'a@b.example' });
    expect(wrong).toThrow(/SMTP_URL must be an smtp:\/\/ or smtps:\/\/ URL/);
    expect(wrong).not.toThrow(/hunter2/);
  });
});
