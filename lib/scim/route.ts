import 'server-only';
import { randomUUID } from 'node:crypto';
import { RateLimiterRes } from 'rate-limiter-flexible';
import type { AuditAction } from '@/lib/audit/actions';
import type { ScimConfig } from '@/lib/config/scim';
import { clientAddress } from '@/lib/config/trusted-proxies';
import { ConsoleError } from '@/lib/console-error';
import { depthExceededAt } from '@/lib/json-depth';
import { type ConsoleServer, consoleServer } from '@/lib/server';
import { logger } from '@/lib/server/logger';
import { readBodyText } from '@/lib/server/request-body';
import { JSON_DEPTH_MAX } from '@/lib/user-group-api/contract';
import { bearerMatches } from './auth';
import { ScimError, scimErrorResponse, scimErrors } from './errors';
import type { ScimWriter } from './users';

/** Who the audit log names for a change the identity provider made. */
const SCIM_ACTOR = { id: null, email: 'SCIM (identity provider)' } as const;

const MAX_SCIM_BODY_BYTES = 256 * 1024;

export interface ScimContext<Params> {
  request: Request;
  params: Params;
  server: ConsoleServer;
  scim: ScimConfig;
  writer: ScimWriter;
  /** The console's own origin, for resources' `meta.location`. */
  origin: string;
  requestId: string;
  /** The body as JSON, parsed with the schema (400 invalidSyntax / invalidValue otherwise). */
  body<T>(schema: { safeParse(value: unknown): { success: true; data: T } | { success: false } }): Promise<T>;
  /**
   * A change, on record before it happens like every change of the console (nothing is done when
   * the entry cannot be written: 503), settled with its outcome after.
   */
  onRecord<T>(action: AuditAction, detail: string, run: () => Promise<T>): Promise<T>;
}

type NextHandler<Params> = (request: Request, context: { params: Promise<Params> }) => Promise<Response>;

/**
 * The frame of the SCIM routes, which an identity provider calls, not a browser: no session and no
 * origin check, the one bearer token instead (SCIM_TOKEN; off, every path answers 404). Requests
 * are limited like the console's other API routes (per minute, shared through Redis when set), and
 * every answer is SCIM's: application/scim+json, errors in its error schema (RFC 7644 §3.12), a
 * request id, one log line (never a header or the body, which could hold the token).
 */
export function scimRoute<Params>(
  name: string,
  handler: (context: ScimContext<Params>) => Promise<Response>,
): NextHandler<Params> {
  return async (request, context) => {
    const requestId = randomUUID();
    const started = performance.now();
    let response: Response;
    try {
      response = await answer(request, requestId, await context.params, handler);
    } catch (error) {
      response = failure(error, name, requestId);
    }
    const headers = new Headers(response.headers);
    headers.set('cache-control', 'no-store');
    headers.set('x-request-id', requestId);
    logger.info(
      {
        operation: name,
        requestId,
        status: response.status,
        durationMs: Math.round(performance.now() - started),
      },
      'scim request',
    );
    return new Response(response.body, { status: response.status, headers });
  };
}

async function answer<Params>(
  request: Request,
  requestId: string,
  params: Params,
  handler: (context: ScimContext<Params>) => Promise<Response>,
): Promise<Response> {
  const server = await consoleServer();
  const { scim } = server.config;
  if (!scim) return scimErrorResponse(new ScimError(404, 'SCIM provisioning is off in this console.'));
  const address = clientAddress(request.headers, server.config.trustedProxies) ?? 'unknown';
  if (!bearerMatches(request.headers, scim.token)) {
    await spend(server.scimRefusalLimit, address);
    return scimErrorResponse(new ScimError(401, 'Send the console’s SCIM token as Authorization: Bearer.'), {
      'www-authenticate': 'Bearer realm="scim"',
    });
  }
  await spend(server.scimLimit, 'scim');
  return handler({
    request,
    params,
    server,
    scim,
    writer: {
      auth: server.auth,
      db: server.database.db,
      dialect: server.database.dialect,
      scim,
      clock: server.clock,
    },
    origin: server.config.consoleUrl.origin,
    requestId,
    body: (schema) => readScimBody(request, schema),
    onRecord: (action, detail, run) => onRecord(server, requestId, action, detail, run),
  });
}

/** A SCIM refusal inside the action (a taken userName) settles its entry with its scimType or status. */
async function onRecord<T>(
  server: ConsoleServer,
  requestId: string,
  action: AuditAction,
  detail: string,
  run: () => Promise<T>,
): Promise<T> {
  const result = await server.auditLog.audited(
    { action, operator: SCIM_ACTOR, requestId, detail },
    async (): Promise<{ done: T } | { refused: ScimError }> => {
      try {
        return { done: await run() };
      } catch (error) {
        if (error instanceof ScimError) return { refused: error };
        throw error;
      }
    },
    {
      settled: (outcome) =>
        'refused' in outcome
          ? { outcome: outcome.refused.scimType ?? `refused_${outcome.refused.status}` }
          : { outcome: 'success' },
    },
  );
  if ('refused' in result) throw result.refused;
  return result.done;
}

async function spend(limit: ConsoleServer['scimLimit'], key: string): Promise<void> {
  try {
    await limit.consume(key);
  } catch (refusal) {
    if (!(refusal instanceof RateLimiterRes)) throw refusal;
    const seconds = Math.max(1, Math.ceil(refusal.msBeforeNext / 1000));
    throw Object.assign(new ScimError(429, `Too many requests: retry in ${seconds} s.`), {
      retryAfter: seconds,
    });
  }
}

async function readScimBody<T>(
  request: Request,
  schema: { safeParse(value: unknown): { success: true; data: T } | { success: false } },
): Promise<T> {
  const type = request.headers.get('content-type') ?? '';
  if (!/^application\/(scim\+)?json\s*(;|$)/i.test(type))
    throw new ScimError(415, 'Send the body as application/scim+json.');
  const read = await readBodyText(request, MAX_SCIM_BODY_BYTES);
  if ('tooLarge' in read) throw new ScimError(413, 'The body is too large.');
  // Checked before parsing, like every console body: nothing below reads a body nested deeper.
  if (depthExceededAt(read.text, JSON_DEPTH_MAX) >= 0)
    throw scimErrors.invalidSyntax(`The body nests deeper than ${JSON_DEPTH_MAX} levels.`);
  let json: unknown;
  try {
    json = JSON.parse(read.text);
  } catch {
    throw scimErrors.invalidSyntax('The body is not JSON.');
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success)
    throw scimErrors.invalidValue('The body is not a resource the console reads: check its attributes.');
  return parsed.data;
}

/** A refusal in SCIM's words; anything else logged by name only and answered 500 with the request id. */
function failure(error: unknown, name: string, requestId: string): Response {
  if (error instanceof ScimError) {
    const retryAfter = (error as { retryAfter?: number }).retryAfter;
    return scimErrorResponse(error, retryAfter ? { 'retry-after': String(retryAfter) } : {});
  }
  if (error instanceof ConsoleError && error.code === 'audit_unavailable')
    return scimErrorResponse(
      new ScimError(
        503,
        `Nothing was done: the console could not write its audit log (request ${requestId}).`,
      ),
      { 'retry-after': '30' },
    );
  logger.error(
    { operation: name, requestId, err: { name: error instanceof Error ? error.name : typeof error } },
    'scim request failed',
  );
  return scimErrorResponse(new ScimError(500, `The console failed to answer (request ${requestId}).`));
}
