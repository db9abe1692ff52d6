import 'server-only';
import pino from 'pino';

/**
 * The console's JSON logger. Secrets are kept out of log objects by construction; the redact list
 * is the second line of defence should one slip into a logged object.
 */
export const logger = pino({
  level: process.env.LOG_LEVEL ?? 'info',
  base: { service: 'user-group-console' },
  redact: {
    paths: [
      'apiKey',
      'token',
      'current_token',
      'authorization',
      '*.apiKey',
      '*.token',
      '*.current_token',
      '*.authorization',
      'headers.authorization',
      'headers.cookie',
      'user_group.token',
    ],
    censor: '[redacted]',
  },
});
