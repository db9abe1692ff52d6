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

/** The group as it stands after the operations: its name, external id and members. */
export function patchGroup(current: GroupState, operations: readonly PatchOperation[]): GroupState {
  const group: GroupState = { ...current, members: [...current.members] };
  const memberIds = (value: unknown) =>
    parsed(scimMembersSchema, value, 'members').map((member) => member.value);
  const apply = (path: string, op: PatchOperation['op'], value: unknown) => {
    const key = path.toLowerCase();
    const one = MEMBER_FILTER.exec(path);
    if (one) {
      if (op === 'remove') group.members = group.members.filter((id) => id !== one[1]);
    } else if (key === 'members') {
      if (op === 'add') group.members = [...new Set([...group.members, ...memberIds(value)])];
      else if (op === 'replace') group.members = memberIds(value);
      else if (value === undefined) group.members = [];
      else {
        const gone = new Set(memberIds(value));
        group.members = group.members.filter((id) => !gone.has(id));
      }
    } else if (key === 'displayname') {
      if (op === 'remove') throw scimErrors.invalidValue('displayName cannot be removed.');
      group.displayName = parsed(textValue.check(z.minLength(1)), value, path);
    } else if (key === 'externalid')
      group.externalId = op === 'remove' ? null : parsed(textValue, value, path);
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
  return group;
}
