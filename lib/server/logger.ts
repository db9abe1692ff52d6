import 'server-only';
import pino from 'pino';
import { logRedaction } from '@/lib/log-redaction';

/**
 * The console's JSON logger. Its level comes from the configuration (LOG_LEVEL) once the
 * console's server starts (lib/server/index.ts); until then, `info`.
 */
export const logger = pino({
  level: 'info',
  base: { service: 'user-group-console' },
  redact: logRedaction,
});
