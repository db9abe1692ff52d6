import { describe, expect, it } from 'vitest';
import { routeTable } from './route-table';

/** A handler as consoleRoute answers it: it says what it serves, and answers with what it was handed. */
const handler = (method: string, path: string) =>
  Object.assign(
    async (_request: Request, context: { params: Promise<Record<string, string>> }) =>
      Response.json({ path, params: await context.params }),
    { route: { method, path } },
  );

const handlers = {
  rename: handler('POST', '/api/things/[environment]/rename'),
  archive: handler('POST', '/api/things/[environment]/archive'),
  readOne: handler('GET', '/api/things/[environment]/rename'),
  elsewhere: handler('POST', '/api/other/[environment]/rename'),
  deeper: handler('POST', '/api/things/[environment]/jobs/rename'),
  notAHandler: 'a constant the module exports too',
};

const call = (post: ReturnType<typeof routeTable>, params: Record<string, string>) =>
  post(new Request('http://127.0.0.1/api/x', { method: 'POST' }), { params: Promise.resolve(params) }).then(
    (response) => response.json(),
  );

describe('routeTable', () => {
  const post = routeTable('/api/things/[environment]/[action]', 'POST', handlers);

  it('hands a request to the route its segment names, with every param', async () => {
    expect(await call(post, { environment: 'testing', action: 'archive' })).toEqual({
      path: '/api/things/[environment]/archive',
      params: { environment: 'testing', action: 'archive' },
    });
    expect((await call(post, { environment: 'customer', action: 'rename' })).path).toBe(
      '/api/things/[environment]/rename',
    );
  });

  it('serves only its method and the paths that fit its pattern; any other name is no route', async () => {
    const none = async () => Response.json({ path: null });
    const get = routeTable('/api/things/[environment]/[action]', 'GET', handlers, none);
    expect((await call(get, { environment: 'testing', action: 'rename' })).path).toBe(
      '/api/things/[environment]/rename',
    );
    expect((await call(get, { environment: 'testing', action: 'archive' })).path).toBeNull();
    const posts = routeTable('/api/things/[environment]/[action]', 'POST', handlers, none);
    for (const action of ['jobs', 'jobs/rename', '[environment]', 'notAHandler', 'readOne', ''])
      expect((await call(posts, { environment: 'testing', action })).path, action).toBeNull();
  });
});
