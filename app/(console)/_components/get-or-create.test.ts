import { describe, expect, it } from 'vitest';
import { getOrCreateRequestSchema } from '@/lib/user-group-api/contract';
import type { GetOrCreateResult } from '@/lib/user-groups/contract';
import {
  emptyGetOrCreateForm,
  type GetOrCreateFormValues,
  getOrCreateFormSchema,
} from './get-or-create.schema';
import { sameJson, toGetOrCreateRequest, unchangedGroupNotices } from './get-or-create.utils';

const form = (values: Partial<GetOrCreateFormValues>): GetOrCreateFormValues => ({
  ...emptyGetOrCreateForm,
  ...values,
});

// Asynchronous: a JSON field's check fetches the JSON parser on first use.
async function problemsOf(values: GetOrCreateFormValues): Promise<Record<string, string>> {
  const result = await getOrCreateFormSchema.safeParseAsync(values);
  if (result.success) return {};
  return Object.fromEntries(result.error.issues.map((issue) => [issue.path.join('.'), issue.message]));
}

describe('getOrCreateFormSchema', () => {
  it('accepts an ID alone', async () => {
    expect(await problemsOf(form({ user_group_id: 'acme' }))).toEqual({});
  });

  // Each case: form values, field, message shown under it.
  it.each([
    [{ user_group_id: '' }, 'user_group_id', 'Enter a user group ID.'],
    [{ user_group_id: ' acme' }, 'user_group_id', 'Remove the spaces at the start or end.'],
    [{ user_group_id: 'x'.repeat(256) }, 'user_group_id', 'Use at most 255 characters.'],
    [
      { user_group_id: 'ab12'.repeat(16) },
      'user_group_id',
      'This looks like a token, not a user group ID: to find its group, use Paste a token.',
    ],
    [{ user_group_id: 'a', name: 'n'.repeat(256) }, 'name', 'Use at most 255 characters.'],
    [
      { user_group_id: 'a', mapping: '{\n  "sales": 1,\n}' },
      'mapping',
      'Line 2, column 13: trailing comma is not allowed in JSON.',
    ],
    [{ user_group_id: 'a', mapping: '[1]' }, 'mapping', 'Must be a JSON object.'],
    [
      { user_group_id: 'a', mapping: '{"sales": true}' },
      'mapping',
      expect.stringMatching(/^“sales”: .*data source id/),
    ],
    [{ user_group_id: 'a', properties: '"plan"' }, 'properties', 'Must be a JSON object.'],
    [{ user_group_id: 'a', properties: '{"plan": }' }, 'properties', 'Line 1, column 10: expected a value.'],
  ])('%j: %s', async (values, field, message) => {
    expect((await problemsOf(form(values)))[field]).toEqual(message);
  });
});

describe('toGetOrCreateRequest', () => {
  it('omits blank optional fields', () => {
    expect(
      toGetOrCreateRequest(form({ user_group_id: 'acme', name: '  ', mapping: ' ', properties: '\n' })),
    ).toEqual({
      user_group_id: 'acme',
    });
  });

  it('sends the name as typed and the JSON fields parsed', () => {
    const request = toGetOrCreateRequest(
      form({
        user_group_id: 'acme',
        name: 'Acme Inc.',
        mapping: '{ "sales": 42, "crm": "crm-eu" }',
        properties: '{ "plan": "pro", "seats": [1, 2] }',
      }),
    );
    expect(request).toEqual({
      user_group_id: 'acme',
      name: 'Acme Inc.',
      mapping: { sales: 42, crm: 'crm-eu' },
      properties: { plan: 'pro', seats: [1, 2] },
    });
    expect(getOrCreateRequestSchema.parse(request)).toEqual(request);
  });

  it('refuses values the form schema would have refused', () => {
    expect(() => toGetOrCreateRequest(form({ user_group_id: 'a', mapping: '{' }))).toThrow();
    expect(() => toGetOrCreateRequest(form({ user_group_id: 'a', properties: '[]' }))).toThrow();
  });
});

describe('unchangedGroupNotices', () => {
  const result = (newUserGroup: boolean, name: string, properties: Record<string, unknown> | null = null) =>
    ({
      new_user_group: newUserGroup,
      user_group: { team_id: 7, token: 't', name, provided_id: 'acme', properties },
    }) satisfies GetOrCreateResult;

  it('says nothing about a new group', () => {
    expect(
      unchangedGroupNotices(
        { user_group_id: 'acme', name: 'Other', mapping: { a: 1 } },
        result(true, 'Acme'),
      ),
    ).toEqual([]);
  });

  it('says the stored name differs', () => {
    expect(unchangedGroupNotices({ user_group_id: 'acme', name: 'Acme 2' }, result(false, 'Acme'))).toEqual([
      'The stored name is “Acme”, not “Acme 2”: get-or-create never updates an existing group.',
    ]);
  });

  it('says nothing when the name matches or was left blank', () => {
    expect(unchangedGroupNotices({ user_group_id: 'acme', name: 'Acme' }, result(false, 'Acme'))).toEqual([]);
    expect(unchangedGroupNotices({ user_group_id: 'acme' }, result(false, 'Acme'))).toEqual([]);
  });

  it('says which typed values were not applied', () => {
    expect(
      unchangedGroupNotices({ user_group_id: 'acme', mapping: { a: 1 } }, result(false, 'Acme')),
    ).toEqual(['The mapping you entered was not applied: the stored values are kept.']);
    expect(
      unchangedGroupNotices(
        { user_group_id: 'acme', mapping: { a: 1 }, properties: { p: 1 } },
        result(false, 'Acme'),
      ),
    ).toEqual(['The mapping and properties you entered were not applied: the stored values are kept.']);
    expect(
      unchangedGroupNotices(
        { user_group_id: 'acme', properties: { p: 1, q: 2 } },
        result(false, 'Acme', { q: 2, p: 1 }),
      ),
    ).toEqual([]);
  });
});

describe('sameJson', () => {
  it('ignores key order but not array order', () => {
    expect(sameJson({ a: 1, b: { c: 2, d: 3 } }, { b: { d: 3, c: 2 }, a: 1 })).toBe(true);
    expect(sameJson([1, 2], [2, 1])).toBe(false);
    expect(sameJson({ a: 1 }, null)).toBe(false);
  });
});
