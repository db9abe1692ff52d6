import 'server-only';
import { patchRequestSchema, scimGroupSchema } from './contract';
import { scimErrors, scimJson } from './errors';
import {
  deleteScimGroup,
  findScimGroup,
  type GroupState,
  listScimGroups,
  roleOfGroup,
  type ScimGroup,
  writeScimGroup,
} from './groups';
import { patchGroup } from './patch';
import { eqFilter, listResponse, paging, toScimGroup } from './resources';
import type { ScimContext } from './route';
import { applyGroupRole, type ScimWriter } from './users';

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
  const state: GroupState = {
    displayName: input.displayName,
    externalId: input.externalId ?? null,
    members: (input.members ?? []).map((member) => member.value),
  };
  const id = await context.onRecord('scim.group.create', describeGroup(context, state), () =>
    writeWithRoles(context.writer, null, state),
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
  return written(context, current, {
    displayName: input.displayName,
    externalId: input.externalId ?? null,
    members: (input.members ?? []).map((member) => member.value),
  });
}

/** PATCH: members added and removed (Okta, Entra ID), the name replaced. Answers the group (200). */
export async function patchGroupRoute(context: ScimContext<GroupParams>): Promise<Response> {
  const current = await found(context, context.params.id);
  const { Operations } = await context.body(patchRequestSchema);
  return written(context, current, patchGroup(stateOf(current), Operations));
}

export async function deleteGroup(context: ScimContext<GroupParams>): Promise<Response> {
  const current = await found(context, context.params.id);
  await context.onRecord('scim.group.delete', describeGroup(context, stateOf(current)), async () => {
    const members = await deleteScimGroup(context.writer.db, current.id);
    for (const member of members) await applyGroupRole(context.writer, member);
  });
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

async function written(context: ScimContext<GroupParams>, current: ScimGroup, state: GroupState) {
  await context.onRecord('scim.group.update', describeGroup(context, state, current), () =>
    writeWithRoles(context.writer, current.id, state),
  );
  return scimJson(toScimGroup(await found(context, current.id), context.origin));
}

/** The group written, then the role of everyone who joined or left it worked out again. */
async function writeWithRoles(writer: ScimWriter, id: string | null, state: GroupState): Promise<string> {
  const written = await writeScimGroup(writer.db, id, state);
  for (const member of written.touched) await applyGroupRole(writer, member);
  return written.id;
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
