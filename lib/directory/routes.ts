/**
 * An environment's directory, searched. Their console routes' definitions (lib/console-api/define-route.ts),
 * gathered with every feature's in lib/console-api/routes.ts. Plain module: the browser imports it.
 */
import { defineRoute } from '@/lib/console-api/define-route';
import { directoryPageSchema } from '@/lib/directory/contract';

export const directoryRoutes = {
  directorySearch: defineRoute({
    name: 'directory.search',
    method: 'GET',
    path: '/api/user-groups/[environment]',
    permission: 'console:use',
    answer: directoryPageSchema,
  }),
};
