import {
  type GetOrCreateRequest,
  type Mapping,
  mappingSchema,
  type Properties,
  propertiesSchema,
} from '@/lib/user-group-api/contract';
import type { GetOrCreateResult } from '@/lib/user-groups/contract';
import type { GetOrCreateFormValues } from './get-or-create.schema';

/**
 * The value of JSON text the form schema has accepted (so JSON.parse reads it exactly: the schema
 * refuses integers it would round); undefined when blank. Throws on text that is not JSON.
 */
function jsonValue(text: string): unknown {
  return text.trim() === '' ? undefined : JSON.parse(text);
}

/**
 * Form values (already validated by getOrCreateFormSchema) to the request body: the ID as typed,
 * the name unless blank, mapping and properties parsed from JSON unless blank.
 */
export function toGetOrCreateRequest(values: GetOrCreateFormValues): GetOrCreateRequest {
  const request: GetOrCreateRequest = { user_group_id: values.user_group_id };
  if (values.name.trim() !== '') request.name = values.name;
  const mapping = jsonValue(values.mapping);
  if (mapping !== undefined) request.mapping = mappingSchema.parse(mapping) as Mapping;
  const properties = jsonValue(values.properties);
  if (properties !== undefined) request.properties = propertiesSchema.parse(properties) as Properties;
  return request;
}

/**
 * What a person should know when get-or-create returned an existing group that differs from what
 * they typed: get-or-create never updates a group.
 */
export function unchangedGroupNotices(request: GetOrCreateRequest, result: GetOrCreateResult): string[] {
  if (result.new_user_group) return [];
  const notices: string[] = [];
  const stored = result.user_group.name;
  if (request.name !== undefined && request.name !== stored) {
    notices.push(
      `The stored name is “${stored}”, not “${request.name}”: get-or-create never updates an existing group.`,
    );
  }
  const ignored: string[] = [];
  // The stored mapping is not returned, so a mapping typed for an existing group is always reported.
  if (request.mapping !== undefined) ignored.push('mapping');
  if (request.properties !== undefined && !sameJson(request.properties, result.user_group.properties)) {
    ignored.push('properties');
  }
  if (ignored.length > 0) {
    const verb = ignored.length === 1 && ignored[0] === 'mapping' ? 'was' : 'were';
    notices.push(`The ${ignored.join(' and ')} you entered ${verb} not applied: the stored values are kept.`);
  }
  return notices;
}

/** JSON equality that ignores the order of object keys. */
export function sameJson(left: unknown, right: unknown): boolean {
  return canonicalJson(left) === canonicalJson(right);
}

function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${canonicalJson(item)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}
