import { describe, expect, it } from 'vitest';
import { environmentSchema } from '@/lib/user-group-api/contract';
import { environmentFromSlug, environmentPhrase, environments, slugOf } from './environments';

describe('environments', () => {
  it("are the contract's, in its order", () => {
    expect(environments).toEqual(environmentSchema.options);
  });

  it('each has a slug that leads back to it', () => {
    for (const environment of environments)
      expect(environmentFromSlug(slugOf[environment])).toBe(environment);
  });

  it('name themselves with their kind, production first of all', () => {
    expect(environmentPhrase('Customer')).toBe('Customer (production)');
    expect(environmentPhrase('Testing')).toBe('Testing (sandbox)');
  });
});
