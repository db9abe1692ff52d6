import { describe, expect, it } from 'vitest';
import { deleteRequestSchema } from '@/lib/user-group-api/contract';
import { deleteUserGroupFormSchema } from './delete-user-group.schema';
import { toDeleteRequest } from './delete-user-group.utils';

describe('deleteUserGroupFormSchema', () => {
  it.each([
    [{ user_group_id: '', current_token: 't' }, 'user_group_id', 'Enter a user group ID.'],
    [
      { user_group_id: 'acme ', current_token: 't' },
      'user_group_id',
      'Remove the spaces at the start or end.',
    ],
    [{ user_group_id: 'acme', current_token: '' }, 'current_token', 'Paste the current token.'],
  ])('%j: %s', (values, field, message) => {
    const result = deleteUserGroupFormSchema.safeParse(values);
    const issue = result.error?.issues.find((candidate) => candidate.path[0] === field);
    expect(issue?.message).toBe(message);
  });
});

describe('toDeleteRequest', () => {
  it('keeps the ID as typed and trims the token', () => {
    const request = toDeleteRequest({ user_group_id: 'Acme-01', current_token: ' tok_1 ' });
    expect(request).toEqual({ user_group_id: 'Acme-01', current_token: 'tok_1' });
    expect(deleteRequestSchema.parse(request)).toEqual(request);
  });
});
