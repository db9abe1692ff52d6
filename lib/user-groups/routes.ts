/**
 * The single actions on a user group: get or create, show its token, rotate, delete. Their console routes'
 * definitions (lib/console-api/define-route.ts), gathered with every feature's in lib/console-api/routes.ts.
 * Plain module: the browser imports it.
 */
import { defineRoute } from '@/lib/console-api/define-route';
import {
  deleteBodySchema,
  deleteResultSchema,
  getOrCreateBodySchema,
  getOrCreateResultSchema,
  rotateBodySchema,
  rotateResultSchema,
  showTokenBodySchema,
  showTokenResultSchema,
} from '@/lib/user-groups/contract';

export const userGroupRoutes = {
  getOrCreate: defineRoute({
    name: 'get-or-create',
    audits: ['get-or-create'],
    method: 'POST',
    path: '/api/user-groups/[environment]/get-or-create',
    permission: 'user-groups:get-or-create',
    body: getOrCreateBodySchema,
    answer: getOrCreateResultSchema,
    stepUp: 'in-production',
  }),
  /**
   * A look at a group's current token, which never creates the group: a get-or-create of the id
   * alone, undone at once (deleted again) when it made a new group.
   */
  showToken: defineRoute({
    name: 'show-token',
    audits: ['show-token'],
    method: 'POST',
    path: '/api/user-groups/[environment]/show-token',
    permission: 'user-groups:reveal-token',
    body: showTokenBodySchema,
    answer: showTokenResultSchema,
    stepUp: 'in-production',
  }),
  rotate: defineRoute({
    name: 'rotate',
    audits: ['rotate'],
    method: 'POST',
    path: '/api/user-groups/[environment]/rotate',
    permission: 'user-groups:rotate',
    body: rotateBodySchema,
    answer: rotateResultSchema,
    stepUp: 'in-production',
  }),
  delete: defineRoute({
    name: 'delete',
    audits: ['delete'],
    method: 'POST',
    path: '/api/user-groups/[environment]/delete',
    permission: 'user-groups:delete',
    body: deleteBodySchema,
    answer: deleteResultSchema,
    stepUp: 'in-production',
  }),
};
