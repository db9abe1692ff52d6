/**
 * What a URL's dynamic segments name, read for the page or route that receives them: a decoded
 * segment, or the environment a slug names. Plain module: pages and routes both use it.
 */
import { ConsoleError } from '@/lib/console-error';
import { type Environment, environmentFromSlug } from '@/lib/environments';

/**
 * A dynamic route segment as Next hands it to a page: still percent-encoded. decodeURIComponent
 * throws a URIError on a malformed escape (`/customer/groups/%E0%A4%A`), which a page would answer
 * with a 500; this answers null instead, for the page to answer 404 (`decodeParam(id) ?? notFound()`).
 */
export function decodeParam(value: string): string | null {
  try {
    return decodeURIComponent(value);
  } catch (error) {
    if (error instanceof URIError) return null;
    throw error;
  }
}

/** The environment a route's URL names (its slug), or 404: a route serves only the two there are. */
export function routeEnvironment(slug: string): Environment {
  const environment = environmentFromSlug(slug);
  if (!environment) throw new ConsoleError('not_found', 'No such environment: use customer or testing.');
  return environment;
}
