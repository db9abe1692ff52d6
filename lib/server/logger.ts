import 'server-only';
import pino from 'pino';
import { logRedaction } from '@/lib/log-redaction';
import { processWide } from '@/lib/process-wide';

/**
 * The console's JSON logger, one per process (lib/process-wide.ts): its level comes from the
 * configuration (LOG_LEVEL) once the console's server starts (lib/server/index.ts), for every copy
 * of this module; until then, `info`.
 */
export const logger = processWide('logger', () =>
  pino({
    level: 'info',
    base: { service: 'user-group-console' },
    redact: logRedaction,
  }),
);
