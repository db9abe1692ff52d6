import { describe, expect, it } from 'vitest';
import { ConsoleError } from '@/lib/console-api/console-error';
import { routeEnvironment } from './errors';

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
