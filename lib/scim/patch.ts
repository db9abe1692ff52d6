/**
 * PATCH (RFC 7644 §3.5.2) as Okta and Entra ID send it, applied to what the console keeps. Okta
 * sends `{ op: "replace", value: { active: false } }` (no path); Entra ID `{ op: "Replace", path:
 * "active", value: "False" }`, and `emails[type eq "work"].value` for an address. Attributes the
 * console does not keep are ignored, as on POST and PUT.
 */
import * as z from 'zod/mini';
import {
  type PatchOperation,
  type ScimUserInput,
  scimBoolean,
  scimMembersSchema,
  scimNameSchema,
} from './contract';
import { scimErrors } from './errors';
import type { GroupChange } from './group-writes';
import type { GroupState } from './groups';

const SCIM_USER_PREFIX = /^urn:ietf:params:scim:schemas:core:2\.0:User:/i;

function parsed<T>(schema: z.ZodMiniType<T>, value: unknown, path: string): T {
  const result = schema.safeParse(value);
  if (!result.success) throw scimErrors.invalidValue(`The value for ${path} is not valid.`);
  return result.data;
}

const textValue = z.string().check(z.trim(), z.maxLength(254));

/** One attribute of a User set (add, replace) or removed. */
function applyUserPath(user: ScimUserInput, rawPath: string, op: PatchOperation['op'], value: unknown): void {
  const path = rawPath.replace(SCIM_USER_PREFIX, '');
  const key = path.toLowerCase();
  if (key === 'active') {
    if (op !== 'remove') user.active = parsed(scimBoolean, value, path);
  } else if (key === 'username') {
    if (op === 'remove') throw scimErrors.invalidValue('userName cannot be removed.');
    user.userName = parsed(textValue, value, path);
  } else if (key === 'externalid') user.externalId = op === 'remove' ? null : parsed(textValue, value, path);
  else if (key === 'displayname') user.displayName = op === 'remove' ? null : parsed(textValue, value, path);
  else if (key === 'name') {
    user.name = op === 'remove' ? {} : parsed(scimNameSchema, value, path);
    user.displayName = null;
  } else if (key.startsWith('name.')) {
    const part = {
      'name.givenname': 'givenName',
      'name.familyname': 'familyName',
      'name.formatted': 'formatted',
    }[key] as 'givenName' | 'familyName' | 'formatted' | undefined;
    if (!part) return;
    user.name = { ...user.name, [part]: op === 'remove' ? undefined : parsed(textValue, value, path) };
    user.displayName = null;
  } else if (key === 'emails') {
    if (op !== 'remove') user.emails = parsed(z.array(z.looseObject({ value: textValue })), value, path);
  } else if (/^emails\[.*\]\.value$/.test(key) && op !== 'remove') {
    user.emails = [{ value: parsed(textValue, value, path), primary: true }];
  }
}

/** The User as it stands after the operations, as a PUT body would say it. */
export function patchUser(current: ScimUserInput, operations: readonly PatchOperation[]): ScimUserInput {
  const user: ScimUserInput = structuredClone(current);
  for (const { op, path, value } of operations) {
    if (path) applyUserPath(user, path, op, value);
    else if (op === 'remove') throw scimErrors.invalidValue('A remove needs a path.');
    else {
      const values = parsed(z.record(z.string(), z.unknown()), value, 'the operation');
      for (const [key, item] of Object.entries(values)) applyUserPath(user, key, op, item);
    }
  }
  return user;
}

const MEMBER_FILTER = /^members\[value eq "([^"]+)"\]$/i;

/**
 * The group's change the operations say: its name, external id, and the members added, removed or
 * replaced, in order. Never the whole member list read and written back: two PATCHes at once both
 * hold (lib/scim/group-writes.ts).
 */
export function patchGroup(operations: readonly PatchOperation[]): GroupChange {
  const change: GroupChange = { members: [] };
  const memberIds = (value: unknown) =>
    parsed(scimMembersSchema, value, 'members').map((member) => member.value);
  const apply = (path: string, op: PatchOperation['op'], value: unknown) => {
    const key = path.toLowerCase();
    const one = MEMBER_FILTER.exec(path);
    if (one) {
      if (op === 'remove') change.members.push({ op: 'remove', ids: [one[1] ?? ''] });
    } else if (key === 'members') {
      if (op === 'add') change.members.push({ op: 'add', ids: memberIds(value) });
      else if (op === 'replace') change.members.push({ op: 'set', ids: memberIds(value) });
      else if (value === undefined) change.members.push({ op: 'set', ids: [] });
      else change.members.push({ op: 'remove', ids: memberIds(value) });
    } else if (key === 'displayname') {
      if (op === 'remove') throw scimErrors.invalidValue('displayName cannot be removed.');
      change.displayName = parsed(textValue.check(z.minLength(1)), value, path);
    } else if (key === 'externalid')
      change.externalId = op === 'remove' ? null : parsed(textValue, value, path);
  };
  for (const { op, path, value } of operations) {
    if (path) apply(path, op, value);
    else if (op === 'remove') throw scimErrors.invalidValue('A remove needs a path.');
    else
      for (const [key, item] of Object.entries(
        parsed(z.record(z.string(), z.unknown()), value, 'the operation'),
      ))
        if (key !== 'id') apply(key, op, item);
  }
  return change;
}

/** What the group would be after the change, read from its state before (for the audit entry). */
export function projected(before: GroupState, change: GroupChange): GroupState {
  let members = [...before.members];
  for (const { op, ids } of change.members) {
    if (op === 'set') members = [...new Set(ids)];
    else if (op === 'add') members = [...new Set([...members, ...ids])];
    else members = members.filter((id) => !ids.includes(id));
  }
  return {
    displayName: change.displayName ?? before.displayName,
    externalId: change.externalId === undefined ? before.externalId : change.externalId,
    members,
  };
}
