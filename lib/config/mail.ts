import { z } from 'zod';
import { ConfigError, optional, type ParsedEnv, positiveInteger } from './env-values';

export interface MailConfig {
  /** `smtp://` or `smtps://`, credentials included: never logged or shown (lib/redact-url.ts). */
  url: string;
  /** The sender of the console's emails: `console@example.com` or `Console <console@example.com>`. */
  from: string;
  /** How long one delivery may take, connecting included, before it counts as failed. */
  timeoutMs: number;
}

/** Invitations by email: on when SMTP_URL is set. */
export const mailEnv = {
  SMTP_URL: optional(z.url({ protocol: /^smtps?$/, error: 'SMTP_URL must be an smtp:// or smtps:// URL' })),
  SMTP_FROM: optional(
    z
      .string()
      .trim()
      .max(254, { error: 'SMTP_FROM is too long' })
      .regex(/^(?:[^<>@\r\n]*<[^\s<>@]+@[^\s<>@]+>|[^\s<>@]+@[^\s<>@]+)$/, {
        error: 'SMTP_FROM must be an email address, alone or as Name <address>',
      }),
  ),
  SMTP_TIMEOUT_MS: positiveInteger('SMTP_TIMEOUT_MS', 'milliseconds', 5_000),
};

/** Mail when SMTP_URL is set (SMTP_FROM with it), null when it is not. */
export function mailConfig(settings: ParsedEnv<typeof mailEnv>): MailConfig | null {
  if (!settings.SMTP_URL) {
    if (settings.SMTP_FROM) throw new ConfigError('SMTP_FROM is set without SMTP_URL: set both, or neither.');
    return null;
  }
  if (!settings.SMTP_FROM)
    throw new ConfigError('SMTP_URL is set without SMTP_FROM: set the address the console sends from.');
  return { url: settings.SMTP_URL, from: settings.SMTP_FROM, timeoutMs: settings.SMTP_TIMEOUT_MS };
}
