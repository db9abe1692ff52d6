/**
 * The console's answers as SCIM resources (RFC 7643 §4.1, §4.2), list responses (RFC 7644 §3.4.2)
 * and the `eq` filters the console understands.
 */
import { SCIM_GROUP_SCHEMA, SCIM_LIST_SCHEMA, SCIM_USER_SCHEMA, type ScimUserInput } from './contract';
import { scimErrors } from './errors';
import type { ScimGroup } from './groups';
import type { ScimOperator } from './users';

const SCIM_BASE_PATH = '/api/scim/v2';

export function toScimUser(operator: ScimOperator, origin: string) {
  return {
    schemas: [SCIM_USER_SCHEMA],
    id: operator.id,
    ...(operator.externalId ? { externalId: operator.externalId } : {}),
    userName: operator.userName,
    name: {
      formatted: operator.name,
      ...(operator.givenName ? { givenName: operator.givenName } : {}),
      ...(operator.familyName ? { familyName: operator.familyName } : {}),
    },
    displayName: operator.name,
    emails: [{ value: operator.email, type: 'work', primary: true }],
    active: operator.active,
    groups: operator.groups.map((group) => ({
      ...group,
      $ref: `${origin}${SCIM_BASE_PATH}/Groups/${group.value}`,
    })),
    meta: {
      resourceType: 'User',
      created: operator.createdAt,
      lastModified: operator.updatedAt,
      location: `${origin}${SCIM_BASE_PATH}/Users/${operator.id}`,
    },
  };
}

/** The operator as a PUT body would say them: what a PATCH starts from. */
export function userInputOf(operator: ScimOperator): ScimUserInput {
  return {
    userName: operator.userName,
    externalId: operator.externalId,
    displayName: operator.name,
    name: {
      ...(operator.givenName ? { givenName: operator.givenName } : {}),
      ...(operator.familyName ? { familyName: operator.familyName } : {}),
    },
    emails: [{ value: operator.email, primary: true }],
    active: operator.active,
  };
}

export function toScimGroup(group: ScimGroup, origin: string) {
  return {
    schemas: [SCIM_GROUP_SCHEMA],
    id: group.id,
    ...(group.externalId ? { externalId: group.externalId } : {}),
    displayName: group.displayName,
    members: group.members.map((member) => ({
      ...member,
      $ref: `${origin}${SCIM_BASE_PATH}/Users/${member.value}`,
    })),
    meta: {
      resourceType: 'Group',
      created: group.createdAt,
      lastModified: group.updatedAt,
      location: `${origin}${SCIM_BASE_PATH}/Groups/${group.id}`,
    },
  };
}

export function listResponse(resources: unknown[], total: number, startIndex: number) {
  return {
    schemas: [SCIM_LIST_SCHEMA],
    totalResults: total,
    startIndex,
    itemsPerPage: resources.length,
    Resources: resources,
  };
}

const MAX_COUNT = 200;

/**
 * startIndex (1-based, at least 1, at most 2^53 − 1: past it no page exists, and a larger number
 * would overflow PostgreSQL's OFFSET) and count (0 to 200, 100 unless said), as RFC 7644 §3.4.2.4.
 */
export function paging(params: URLSearchParams): { startIndex: number; count: number } {
  const number = (name: string, fallback: number) => {
    const text = params.get(name);
    if (text === null || text === '') return fallback;
    const value = Number(text);
    if (!Number.isInteger(value)) throw scimErrors.invalidValue(`${name} must be a whole number.`);
    return value;
  };
  return {
    startIndex: Math.min(Number.MAX_SAFE_INTEGER, Math.max(1, number('startIndex', 1))),
    count: Math.min(MAX_COUNT, Math.max(0, number('count', 100))),
  };
}

/** `attribute eq "value"` for one of the attributes given (any case), or null without a filter. */
export function eqFilter<A extends string>(
  params: URLSearchParams,
  attributes: readonly A[],
): { attribute: A; value: string } | null {
  const filter = params.get('filter');
  if (filter === null || filter.trim() === '') return null;
  const match = /^\s*([\w.:]+)\s+eq\s+"((?:[^"\\]|\\.)*)"\s*$/i.exec(filter);
  const attribute = attributes.find((name) => name.toLowerCase() === match?.[1]?.toLowerCase());
  if (!match || !attribute) throw scimErrors.invalidFilter();
  return { attribute, value: (match[2] ?? '').replace(/\\(.)/g, '$1') };
}
