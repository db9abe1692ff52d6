import 'server-only';
import type { AuditAction } from '@/lib/audit/actions';
import { patchRequestSchema, scimUserSchema } from './contract';
import { scimErrors, scimJson } from './errors';
import { applyGroupRoles } from './group-writes';
import { patchUser } from './patch';
import { eqFilter, listResponse, paging, toScimUser, userInputOf } from './resources';
import type { ScimContext } from './route';
import {
  createScimOperator,
  deleteScimOperator,
  findScimOperator,
  listScimOperators,
  type ScimOperator,
  type ScimUserState,
  updateScimOperator,
  userState,
} from './users';

type UserParams = { id: string };

/** GET /Users, with `userName eq "…"` (what Okta and Entra ID ask before creating) or `externalId eq "…"`. */
export async function listUsers({ request, writer, origin }: ScimContext<unknown>): Promise<Response> {
  const params = new URL(request.url).searchParams;
  const filter = eqFilter(params, ['userName', 'externalId'] as const);
  const { startIndex, count } = paging(params);
  const { total, operators } = await listScimOperators(writer.db, filter, startIndex, count);
  return scimJson(
    listResponse(
      operators.map((operator) => toScimUser(operator, origin)),
      total,
      startIndex,
    ),
  );
}

export async function createUser(context: ScimContext<unknown>): Promise<Response> {
  const { writer, origin } = context;
  const state = userState(await context.body(scimUserSchema));
  const id = await context.onRecord(
    'scim.user.create',
    `${state.email}${state.active ? '' : ' (inactive)'}`,
    async () => {
      const created = await createScimOperator(writer, state);
      await applyGroupRoles(writer, [created]);
      return created;
    },
  );
  const user = toScimUser(await found(context, id), origin);
  return scimJson(user, 201, { location: user.meta.location });
}

export async function getUser(context: ScimContext<UserParams>): Promise<Response> {
  return scimJson(toScimUser(await found(context, context.params.id), context.origin));
}

/** PUT replaces the User: what the body leaves out (its name, say) is what the console falls back to. */
export async function replaceUser(context: ScimContext<UserParams>): Promise<Response> {
  const current = await found(context, context.params.id);
  const input = await context.body(scimUserSchema);
  return written(context, current, userState(input, current));
}

/** PATCH: Okta's `{ op: "replace", value: { active: false } }`, Entra ID's `path: "active", value: "False"`, … */
export async function patchUserRoute(context: ScimContext<UserParams>): Promise<Response> {
  const current = await found(context, context.params.id);
  const { Operations } = await context.body(patchRequestSchema);
  const patched = patchUser(userInputOf(current), Operations);
  return written(context, current, userState(patched, current));
}

/** DELETE: disabled, every session ended, 404 from then on (RFC 7644 §3.6): 204. */
export async function deleteUser(context: ScimContext<UserParams>): Promise<Response> {
  const current = await found(context, context.params.id);
  await context.onRecord('scim.user.delete', `${current.email}: disabled, every session ended`, () =>
    deleteScimOperator(context.writer, current.id),
  );
  return new Response(null, { status: 204 });
}

async function found(context: ScimContext<unknown>, id: string): Promise<ScimOperator> {
  const operator = await findScimOperator(context.writer.db, id);
  if (!operator) throw scimErrors.notFound();
  return operator;
}

async function written(context: ScimContext<UserParams>, current: ScimOperator, state: ScimUserState) {
  const { action, detail } = describeChange(current, state);
  await context.onRecord(action, detail, () => updateScimOperator(context.writer, current, state));
  return scimJson(toScimUser(await found(context, current.id), context.origin));
}

/** The entry's action and words: a deactivation or a re-activation is named as such. */
function describeChange(
  current: ScimOperator,
  state: ScimUserState,
): { action: AuditAction; detail: string } {
  const changes: string[] = [];
  if (state.email !== current.email) changes.push(`email ${current.email} → ${state.email}`);
  if (state.userName !== current.userName) changes.push(`userName ${current.userName} → ${state.userName}`);
  if (state.name !== current.name) changes.push(`name ${current.name} → ${state.name}`);
  if (state.externalId !== current.externalId) changes.push('externalId changed');
  if (state.active !== current.active)
    changes.push(state.active ? 'enabled' : 'disabled, every session ended');
  const action: AuditAction =
    state.active === current.active
      ? 'scim.user.update'
      : state.active
        ? 'scim.user.activate'
        : 'scim.user.deactivate';
  return { action, detail: `${current.email}: ${changes.join('; ') || 'no change'}` };
}
