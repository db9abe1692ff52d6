import 'server-only';
import { ConsoleError } from '@/lib/console-error';
import { type NextHandler, requestFrame } from './frame/frame';
import { anyone } from './frame/guards';
import type { DefinedHandler } from './route';

type Params = Record<string, string>;

const isParam = (segment: string) => /^\[\w+\]$/.test(segment);

const isDefinedHandler = (value: unknown): value is DefinedHandler<Params> =>
  typeof value === 'function' && 'route' in value;

/** What the table answers for a segment that names no route: the documented 404. */
const noSuchRoute = requestFrame<Params, null>({ name: 'not-found', guard: anyone }, async () => {
  throw new ConsoleError('not_found', 'There is no such route.');
});

/**
 * One app/ file for a feature's console routes: `pattern` is the file's own path
 * (`/api/user-groups/[environment]/[action]`), `handlers` the feature's handlers module. A route
 * whose definition's path fits the pattern, with a name where the pattern has a segment its path
 * does not keep (`rename` for `[action]`), is served from here; a new route of the feature then needs
 * no file under app/. Next routes a path to a file of its own first, so such a file still wins.
 */
export function routeTable(
  pattern: string,
  method: string,
  handlers: Record<string, unknown>,
  otherwise: NextHandler<Params> = noSuchRoute,
) {
  const segments = pattern.split('/');
  const fits = (path: string) => {
    const parts = path.split('/');
    return (
      parts.length === segments.length &&
      segments.every((segment, i) => segment === parts[i] || (isParam(segment) && !isParam(parts[i] ?? '')))
    );
  };
  const served = new Map(
    Object.values(handlers)
      .filter(isDefinedHandler)
      .filter(({ route }) => route.method === method && fits(route.path))
      .map((handler) => [handler.route.path, handler]),
  );
  // The segments that pick the route: the pattern's parameters that no path it serves keeps.
  const picking = new Set(
    segments.filter(
      (segment) => isParam(segment) && ![...served.keys()].some((path) => path.includes(segment)),
    ),
  );
  const handler: NextHandler<Params> = async (request, context) => {
    const params = await context.params;
    const path = segments
      .map((segment) => (picking.has(segment) ? (params[segment.slice(1, -1)] ?? '') : segment))
      .join('/');
    return (served.get(path) ?? otherwise)(request, { params: Promise.resolve(params) });
  };
  return handler;
}
