/**
 * Whose token this is. Their console routes' definitions (lib/console-api/define-route.ts), gathered with
 * every feature's in lib/console-api/routes.ts. Plain module: the browser imports it.
 */
import { defineRoute } from '@/lib/console-api/define-route';
import { identifyTokenSchema, tokenIdentitySchema } from '@/lib/tokens/contract';

export const tokenRoutes = {
  /** Whose token is this: the pasted token in the body (never in a URL), groups and times back. */
  identifyToken: defineRoute({
    audits: ['token.identify'],
    name: 'token.identify',
    method: 'POST',
    path: '/api/tokens/identify',
    permission: 'user-groups:reveal-token',
    body: identifyTokenSchema,
    answer: tokenIdentitySchema,
  }),
};
