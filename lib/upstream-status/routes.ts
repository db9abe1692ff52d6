/**
 * How each environment's User Group Service answers. Their console routes' definitions
 * (lib/console-api/define-route.ts), gathered with every feature's in lib/console-api/routes.ts. Plain
 * module: the browser imports it.
 */
import { defineRoute } from '@/lib/console-api/define-route';
import { upstreamStatusPageSchema } from '@/lib/upstream-status/contract';

export const upstreamStatusRoutes = {
  /** How each environment's User Group Service answered the console's last probe (the header's status). */
  upstreamStatus: defineRoute({
    name: 'upstream.status',
    method: 'GET',
    path: '/api/upstream-status',
    permission: 'console:use',
    answer: upstreamStatusPageSchema,
  }),
};
