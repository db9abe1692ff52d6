/**
 * The operators, listed, added and changed by an admin. Their console routes' definitions
 * (lib/console-api/define-route.ts), gathered with every feature's in lib/console-api/routes.ts. Plain
 * module: the browser imports it.
 */
import * as z from 'zod/mini';
import { defineRoute } from '@/lib/console-api/define-route';
import {
  createOperatorResultSchema,
  createOperatorSchema,
  operatorSummarySchema,
  updateOperatorResultSchema,
  updateOperatorSchema,
} from '@/lib/operators/contract';

export const operatorRoutes = {
  listOperators: defineRoute({
    name: 'operators.list',
    method: 'GET',
    path: '/api/operators',
    permission: 'operators:manage',
    answer: z.object({ operators: z.array(operatorSummarySchema) }),
  }),
  createOperator: defineRoute({
    audits: ['operator.create', 'invitation.create'],
    name: 'operators.create',
    method: 'POST',
    path: '/api/operators',
    permission: 'operators:manage',
    stepUp: 'always',
    body: createOperatorSchema,
    answer: createOperatorResultSchema,
  }),
  /** The list as CSV, for an audit: second factor, way in, directory, last sign-in. */
  exportOperators: defineRoute({
    audits: ['operators.export'],
    name: 'operators.export',
    method: 'GET',
    path: '/api/operators/export',
    permission: 'operators:manage',
  }),
  /** `{ role }` or `{ disabled }`. */
  updateOperator: defineRoute({
    audits: ['operator.set-role', 'operator.disable', 'operator.enable'],
    name: 'operators.update',
    method: 'PATCH',
    path: '/api/operators/[id]',
    permission: 'operators:manage',
    stepUp: 'always',
    body: updateOperatorSchema,
    answer: updateOperatorResultSchema,
  }),
};
