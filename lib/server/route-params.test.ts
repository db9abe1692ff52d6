import { describe, expect, it } from 'vitest';
import { ConsoleError } from '@/lib/console-error';
import { decodeParam, routeEnvironment } from './route-params';

describe('decodeParam', () => {
  it.each([
    ['acme', 'acme'],
    ['acme%20inc', 'acme inc'],
    ['%E0%A4%A8', 'न'],
    ['a%2Fb', 'a/b'],
    ['', ''],
  ])('decodes %j', (value, decoded) => {
    expect(decodeParam(value)).toBe(decoded);
  });

  it.each(['%E0%A4%A', '%', '%zz', 'acme%', '%C3%28', '%ED%A0%80'])(
    'answers null for the malformed %j instead of throwing',
    (value) => {
      expect(decodeParam(value)).toBeNull();
    },
  );
});

describe('routeEnvironment', () => {
  it('reads an environment slug, and answers 404 for anything else', () => {
    expect(routeEnvironment('customer')).toBe('Customer');
    expect(routeEnvironment('testing')).toBe('Testing');
    for (const slug of ['Customer', 'production', '', 'testing/']) {
      const error = (() => {
        try {
          routeEnvironment(slug);
        } catch (caught) {
          return caught;
        }
      })();
      expect(error).toBeInstanceOf(ConsoleError);
      expect(error).toMatchObject({ code: 'not_found', status: 404 });
    }
  });
});
