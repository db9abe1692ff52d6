import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ConfigError } from './env-values';
import { scimConfig, scimEnv } from './scim';

const parse = (env: Record<string, string>) => scimConfig(z.object(scimEnv).parse(env));
const TOKEN = 'a'.repeat(32);

describe('SCIM configuration', () => {
  it('is off without SCIM_TOKEN, or with an empty one', () => {
    expect(parse({})).toBeNull();
    expect(parse({ SCIM_TOKEN: '' })).toBeNull();
  });

  it('maps group names to roles without case, with viewer the default', () => {
    const config = parse({
      SCIM_TOKEN: TOKEN,
      SCIM_GROUP_ROLES: ' Console Admins = admin ,Console Support=support',
    });
    expect(config?.defaultRole).toBe('viewer');
    expect([...(config?.groupRoles ?? [])]).toEqual([
      ['console admins', 'admin'],
      ['console support', 'support'],
    ]);
  });

  it('refuses a short token and a mapping it cannot read, without echoing either', () => {
    const short = z.object(scimEnv).safeParse({ SCIM_TOKEN: 'short-secret' });
    expect(short.success).toBe(false);
    expect(short.error?.issues[0]?.message).toBe('SCIM_TOKEN must be at least 32 characters');
    expect(() => parse({ SCIM_TOKEN: TOKEN, SCIM_GROUP_ROLES: 'Secret Group=owner' })).toThrow(ConfigError);
    expect(() => parse({ SCIM_TOKEN: TOKEN, SCIM_GROUP_ROLES: 'Secret Group=owner' })).not.toThrow(
      /Secret Group|owner/,
    );
  });
});
