/**
 * JSON logs to stdout with pino. Secrets are kept out twice: log objects never carry them, and
 * `redact` censors the usual places in case one slips in.
 */
import { type DestinationStream, type Logger, pino } from 'pino';
import { logRedaction } from '../log-redaction';

/** Logs to stdout unless a destination is given (tests capture the lines). */
export function createLogger(level = 'info', destination?: DestinationStream): Logger {
  const options = {
    level,
    base: { service: 'user-group-service' },
    timestamp: pino.stdTimeFunctions.isoTime,
    redact: logRedaction,
  };
  return destination ? pino(options, destination) : pino(options);
}
