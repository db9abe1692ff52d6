import 'server-only';
import { patchRequestSchema, scimGroupSchema } from './contract';
import { scimErrors, scimJson } from './errors';
import { changeScimGroup, deleteScimGroup, type GroupChange } from './group-writes';
import { findScimGroup, type GroupState, listScimGroups, roleOfGroup, type ScimGroup } from './groups';
import { patchGroup, projected } from './patch';
import { eqFilter, listResponse, paging, toScimGroup } from './resources';
import type { ScimContext } from './route';

type GroupParams = { id: string };

export async function listGroups({ request, writer, origin }: ScimContext<unknown>): Promise<Response> {
  const params = new URL(request.url).searchParams;
  const filter = eqFilter(params, ['displayName'] as const);
  const { startIndex, count } = paging(params);
  const { total, groups } = await listScimGroups(writer.db, filter?.value ?? null, startIndex, count);
  return scimJson(
    listResponse(
      groups.map((group) => toScimGroup(group, origin)),
      total,
      startIndex,
    ),
  );
}

export async function createGroup(context: ScimContext<unknown>): Promise<Response> {
  const input = await context.body(scimGroupSchema);
  const change = wholeGroup(input);
  const empty: GroupState = { displayName: input.displayName, externalId: null, members: [] };
  const id = await context.onRecord(
    'scim.group.create',
    describeGroup(context, projected(empty, change)),
    () => changeScimGroup(context.writer, null, change),
  );
  const group = toScimGroup(await found(context, id), context.origin);
  return scimJson(group, 201, { location: group.meta.location });
}

export async function getGroup(context: ScimContext<GroupParams>): Promise<Response> {
  return scimJson(toScimGroup(await found(context, context.params.id), context.origin));
}

export async function replaceGroup(context: ScimContext<GroupParams>): Promise<Response> {
  const current = await found(context, context.params.id);
  const input = await context.body(scimGroupSchema);
  return written(context, current, wholeGroup(input));
}

/** PATCH: members added and removed (Okta, Entra ID), the name replaced. Answers the group (200). */
export async function patchGroupRoute(context: ScimContext<GroupParams>): Promise<Response> {
  const current = await found(context, context.params.id);
  const { Operations } = await context.body(patchRequestSchema);
  return written(context, current, patchGroup(Operations));
}

export async function deleteGroup(context: ScimContext<GroupParams>): Promise<Response> {
  const current = await found(context, context.params.id);
  await context.onRecord('scim.group.delete', describeGroup(context, stateOf(current)), () =>
    deleteScimGroup(context.writer, current.id),
  );
  return new Response(null, { status: 204 });
}

const stateOf = (group: ScimGroup): GroupState => ({
  displayName: group.displayName,
  externalId: group.externalId,
  members: group.members.map((member) => member.value),
});

async function found(context: ScimContext<unknown>, id: string): Promise<ScimGroup> {
  const group = await findScimGroup(context.writer.db, id);
  if (!group) throw scimErrors.notFound('Group');
  return group;
}

/** A POST or PUT body as a change: its name, its external id, its members replacing all. */
const wholeGroup = (input: {
  displayName: string;
  externalId?: string | null | undefined;
  members?: { value: string }[] | undefined;
}): GroupChange => ({
  displayName: input.displayName,
  externalId: input.externalId ?? null,
  members: [{ op: 'set', ids: (input.members ?? []).map((member) => member.value) }],
});

/**
 * The change made in one transaction (lib/scim/group-writes.ts); its audit entry describes it as
 * read before, which a PATCH at the same moment may make approximate, never the change itself.
 */
async function written(context: ScimContext<GroupParams>, current: ScimGroup, change: GroupChange) {
  const state = projected(stateOf(current), change);
  await context.onRecord('scim.group.update', describeGroup(context, state, current), () =>
    changeScimGroup(context.writer, current.id, change),
  );
  return scimJson(toScimGroup(await found(context, current.id), context.origin));
}

/** "Console Admins (gives admin): 3 members, +1 −0" */
function describeGroup(context: ScimContext<unknown>, state: GroupState, before?: ScimGroup): string {
  const role = roleOfGroup(context.scim, state.displayName);
  const given = role ? `gives ${role}` : 'gives no role';
  const previous = new Set(before?.members.map((member) => member.value) ?? []);
  const added = state.members.filter((id) => !previous.has(id)).length;
  const removed = [...previous].filter((id) => !state.members.includes(id)).length;
  const renamed =
    before && before.displayName !== state.displayName ? `; renamed from ${before.displayName}` : '';
  return `${state.displayName} (${given}): ${state.members.length} members, +${added} −${removed}${renamed}`;
}
