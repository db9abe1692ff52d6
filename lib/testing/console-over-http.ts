/**
 * The console's own node:http server (lib/launcher/console-http-server.ts, metrics and all) in front
 * of the console's real route handlers, for tests that need requests to travel over HTTP without a
 * Next build: where Next would route a request to `app/…/route.ts`, this calls the handler the test
 * hands in for that pattern, with the same web Request and params. Route patterns are read from
 * app/ as Next's build lists them (route groups dropped).
 */

import { once } from 'node:events';
import { readdirSync } from 'node:fs';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import path from 'node:path';
import { realClock } from '@/lib/clock';
import { DEFAULT_CONSOLE_HTTP_LIMITS } from '../config';
import { createConsoleHttpServer } from '../launcher/console-http-server';
import type { MetricsAccessPolicy } from '../metrics/access';
import { createRoutePatternMatcher } from '../metrics/route-pattern';

/** A route module's handler; params are typed loosely here (the router fills them by pattern). */
// biome-ignore lint/suspicious/noExplicitAny: each handler declares its own params; this router fills them by pattern.
type RouteHandler = (request: Request, context: { params: Promise<any> }) => Promise<Response> | Response;
export type RouteModule = Partial<Record<'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', RouteHandler>>;

/** Every page and route handler pattern under app/, as in `.next/app-path-routes-manifest.json`. */
function appRoutePatterns(appDir = path.join(process.cwd(), 'app')): string[] {
  const patterns: string[] = [];
  const walk = (dir: string, segments: string[]) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.isDirectory()) {
        const isGroup = /^\(.*\)$/.test(entry.name);
        walk(path.join(dir, entry.name), isGroup ? segments : [...segments, entry.name]);
      } else if (/^(page|route)\.tsx?$/.test(entry.name)) {
        patterns.push(`/${segments.join('/')}`);
      }
    }
  };
  walk(appDir, []);
  return patterns;
}

function paramsOf(pattern: string, pathname: string): Record<string, string | string[]> {
  const names = pattern.split('/').filter(Boolean);
  const parts = pathname.split('/').filter(Boolean);
  const params: Record<string, string | string[]> = {};
  names.forEach((name, index) => {
    const catchAll = /^\[\[?\.\.\.(\w+)\]\]?$/.exec(name);
    if (catchAll) params[catchAll[1] as string] = parts.slice(index).map(decodeURIComponent);
    else if (/^\[\w+\]$/.test(name)) params[name.slice(1, -1)] = decodeURIComponent(parts[index] ?? '');
  });
  return params;
}

async function bodyOf(request: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

export async function startConsoleOverHttp(options: {
  port: number;
  host?: string;
  routes: Record<string, RouteModule>;
  access: MetricsAccessPolicy;
}): Promise<{ server: Server; close(): Promise<void> }> {
  const routeOf = createRoutePatternMatcher(appRoutePatterns());
  const handle = async (request: IncomingMessage, response: ServerResponse) => {
    const url = new URL(request.url ?? '/', `http://${request.headers.host ?? 'console.test'}`);
    const pattern = routeOf(url.pathname);
    const handler = options.routes[pattern]?.[request.method as 'GET'];
    if (!handler) {
      response.writeHead(404, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ error: { code: 'not_found', message: 'No page has this address.' } }));
      return;
    }
    const headers = new Headers();
    for (const [name, value] of Object.entries(request.headers)) {
      if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(', ') : value);
    }
    const body =
      request.method === 'GET' || request.method === 'HEAD'
        ? undefined
        : new Uint8Array(await bodyOf(request));
    const answer = await handler(new Request(url, { method: request.method, headers, body }), {
      params: Promise.resolve(paramsOf(pattern, url.pathname)),
    });
    response.writeHead(answer.status, Object.fromEntries(answer.headers));
    response.end(Buffer.from(await answer.arrayBuffer()));
  };
  const server = createConsoleHttpServer(handle, DEFAULT_CONSOLE_HTTP_LIMITS, {
    access: options.access,
    routeOf,
    clock: realClock,
  });
  server.listen(options.port, options.host ?? '127.0.0.1');
  await once(server, 'listening');
  return {
    server,
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
