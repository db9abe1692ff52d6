import { describe, expect, it } from 'vitest';
import type { ConsoleError } from '@/lib/console-error';
import { UpstreamError } from '@/lib/user-group-api/client';
import { environmentNotConfigured, fromUpstreamError, NOT_SET_UP } from './errors';

describe('setup failures', () => {
  const upstream = (kind: UpstreamError['kind']) =>
    fromUpstreamError(
      new UpstreamError(kind, 'The User Group Service at http://svc/api/user could not be reached.'),
      'rotate',
      'Customer',
      'req-1',
    ) as ConsoleError;

  it.each([
    ['not configured', environmentNotConfigured('Customer'), 'USER_GROUP_API_KEY_CUSTOMER'],
    ['key refused', upstream('unauthorized'), 'USER_GROUP_API_KEY_CUSTOMER'],
    ['unreachable', upstream('unreachable'), 'USER_GROUP_API_URL'],
    ['malformed', upstream('malformed'), 'USER_GROUP_API_URL'],
  ])('%s: the variable is for admins; everyone else reads what to do', (_, error, variable) => {
    expect(error.bodyFor(true).error.message).toContain(variable);
    const plain = error.bodyFor(false).error.message;
    expect(plain).not.toMatch(/USER_GROUP_API/);
    expect(plain).toMatch(/ask an admin of the console/i);
    expect(error.body).toEqual(error.bodyFor(false));
  });

  it.each(['unreachable', 'timeout', 'malformed'] as const)(
    '%s: the service’s address is for admins only',
    (kind) => {
      const error = upstream(kind);
      expect(error.bodyFor(true).error.message).toContain('http://svc/api/user');
      expect(JSON.stringify(error.bodyFor(false))).not.toContain('svc');
    },
  );

  it('says "not set up yet" when there is no key at all', () => {
    expect(environmentNotConfigured('Testing').message).toBe(NOT_SET_UP);
    expect(NOT_SET_UP).toBe('This environment is not set up yet: ask an admin of the console.');
  });
});

describe('the service’s own words', () => {
  it('stay out of what a person reads: the console’s words, the fields named, the request id to find them by', () => {
    const refused = fromUpstreamError(
      new UpstreamError('invalid_request', 'name: ValueError at row 3 (pydantic)', {
        status: 400,
        fields: { name: 'ValueError at row 3 (pydantic)' },
      }),
      'get-or-create',
      'Testing',
      'req-7',
    ) as ConsoleError;
    expect(refused.code).toBe('upstream_invalid_request');
    expect(JSON.stringify(refused.bodyFor(true))).not.toContain('pydantic');
    expect(refused.bodyFor(false).error).toMatchObject({
      message: 'The User Group Service refused the input: check name (request req-7).',
      fields: { name: 'was refused by the User Group Service' },
    });
    const failed = fromUpstreamError(
      new UpstreamError('failed', 'Traceback (most recent call last)', { status: 500 }),
      'rotate',
      'Testing',
      'req-8',
    ) as ConsoleError;
    expect(JSON.stringify(failed.bodyFor(true))).not.toContain('Traceback');
  });
});
