import 'server-only';
import { consoleRoutes } from '@/lib/console-api/routes';
import { consoleRoute } from '@/lib/server/route';
import { identifyToken } from './identify';
import { spendLookUps } from './look-up-limits';

/**
 * The console routes of this feature, each declared once with what the server adds to its
 * definition (routes.ts): its audit, approval and what it acts on, and the call it adapts. The
 * app/api route files only name them. Server-only: the frame (lib/server/route.ts) runs them.
 */

// /api/tokens/identify
/**
 * Whose token is this, in both environments, from the directory and the audit log. On record by
 * the token's fingerprint only (the audit log fingerprints `token`), with what was found. Limited
 * per operator (IDENTIFY_PER_MINUTE): a person pasting tokens, not a script walking a dump.
 */
export const identifyTokenRoute = consoleRoute(
  {
    ...consoleRoutes.identifyToken,
    audit: {
      action: 'token.identify',
      request: (body) => ({ token: body.token }),
      result: (_body, { matches }) => ({
        userGroupId: matches.length === 1 ? (matches[0]?.userGroupId ?? null) : null,
        detail:
          matches.length === 0
            ? 'unknown to the console'
            : matches
                .map((match) => `${match.environment} ${match.userGroupId}: ${match.standing}`)
                .join('; '),
      }),
    },
  },
  async ({ body, operator, server }) => {
    await spendLookUps(server.identifyLimit, operator.id, 1, 'Too many tokens looked up in a minute');
    return identifyToken(server.database.db, body.token);
  },
);
