/**
 * JSON logs to stdout with pino. Secrets are kept out twice: log objects never carry them, and
 * `redact` censors the usual places in case one slips in.
 */
import { type DestinationStream, type Logger, pino } from 'pino';

export const REDACTED_PATHS = [
  'authorization',
  'headers.authorization',
  'req.headers.authorization',
  'token',
  'current_token',
  'key',
  'apiKey',
  'encryptionKey',
  '*.authorization',
  '*.token',
  '*.current_token',
  '*.key',
  '*.apiKey',
  '*.encryptionKey',
];

/** Logs to stdout unless a destination is given (tests capture the lines). */
export function createLogger(level = 'info', destination?: DestinationStream): Logger {
  const options = {
    level,
    base: { service: 'user-group-service' },
    timestamp: pino.stdTimeFunctions.isoTime,
    redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
  };
  return destination ? pino(options, destination) : pino(options);
}
