import 'server-only';
import { RateLimiterRes } from 'rate-limiter-flexible';
import type { AuditAction } from '@/lib/audit/actions';
import type { ScimConfig } from '@/lib/config/scim';
import { clientAddress } from '@/lib/config/trusted-proxies';
import { ConsoleError } from '@/lib/console-error';
import { depthExceededAt } from '@/lib/json-depth';
import type { ConsoleServer } from '@/lib/server';
import { type FailureAnswer, logFailure } from '@/lib/server/frame/answer';
import { type Guard, type NextHandler, requestFrame } from '@/lib/server/frame/frame';
import { type OnRecord, onRecord } from '@/lib/server/frame/writer';
import { readBodyText } from '@/lib/server/request-body';
import { JSON_DEPTH_MAX } from '@/lib/user-group-api/contract';
import { bearerMatches } from './auth';
import { ScimError, scimErrorResponse, scimErrors } from './errors';
import type { ScimWriter } from './writer';

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

/** What the SCIM guard lets through: the console's SCIM settings, the token having matched. */
type ScimAccess = { scim: ScimConfig };

/**
 * The SCIM routes in the console's one frame (lib/server/frame/), with their own guard: an identity
 * provider calls them, not a browser, so no session and no origin check, the one bearer token
 * instead (SCIM_TOKEN; off, every path answers 404). Requests are limited like the console's other
 * API routes (per minute, shared through Redis when set), and every answer is SCIM's:
 * application/scim+json, errors in its error schema (RFC 7644 §3.12), a request id, one log line
 * (never a header or the body, which could hold the token).
 */
export function scimRoute<Params>(
  name: string,
  handler: (context: ScimContext<Params>) => Promise<Response>,
): NextHandler<Params> {
  return requestFrame<Params, ScimAccess>(
    { name, guard: scimGuard, failure: scimFailure },
    ({ request, params, server, actor: { scim }, scope: { requestId } }) =>
      handler({
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
        onRecord: (action, detail, run) =>
          scimChange(onRecord(server, requestId), requestId, action, detail, run),
      }),
  );
}

/** SCIM's guard: on (404 otherwise), the bearer token (401, refusals limited per address), the rate. */
const scimGuard: Guard<ScimAccess> = async (server, request) => {
  const { scim } = server.config;
  if (!scim) return { refused: new ScimError(404, 'SCIM provisioning is off in this console.'), actor: null };
  const address = clientAddress(request.headers, server.config.trustedProxies) ?? 'unknown';
  if (!bearerMatches(request.headers, scim.token)) {
    await spend(server.scimRefusalLimit, address);
    const refused = new ScimError(401, 'Send the console’s SCIM token as Authorization: Bearer.');
    return { refused: Object.assign(refused, { wwwAuthenticate: 'Bearer realm="scim"' }), actor: null };
  }
  await spend(server.scimLimit, 'scim');
  return { actor: { scim } };
};

/** A SCIM refusal inside the action (a taken userName) settles its entry with its scimType or status. */
async function scimChange<T>(
  record: OnRecord,
  requestId: string,
  action: AuditAction,
  detail: string,
  run: () => Promise<T>,
): Promise<T> {
  const result = await record.change(
    { action, operator: SCIM_ACTOR, requestId, detail },
    async (): Promise<{ done: T } | { refused: ScimError } | { failed: unknown }> => {
      try {
        return { done: await run() };
      } catch (error) {
        return error instanceof ScimError ? { refused: error } : { failed: error };
      }
    },
    (outcome) =>
      'refused' in outcome
        ? (outcome.refused.scimType ?? `refused_${outcome.refused.status}`)
        : 'failed' in outcome
          ? outcome.failed instanceof ConsoleError
            ? outcome.failed.code
            : 'internal'
          : 'success',
  );
  if ('refused' in result) throw result.refused;
  if ('failed' in result) throw result.failed;
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
const scimFailure: FailureAnswer = (error, scope) => {
  const { requestId } = scope;
  if (error instanceof ScimError) {
    const { retryAfter, wwwAuthenticate } = error as { retryAfter?: number; wwwAuthenticate?: string };
    return scimErrorResponse(error, {
      ...(retryAfter ? { 'retry-after': String(retryAfter) } : {}),
      ...(wwwAuthenticate ? { 'www-authenticate': wwwAuthenticate } : {}),
    });
  }
  if (error instanceof ConsoleError && error.code === 'audit_unavailable')
    return scimErrorResponse(
      new ScimError(
        503,
        `Nothing was done: the console could not write its audit log (request ${requestId}).`,
      ),
      { 'retry-after': '30' },
    );
  logFailure(error, scope);
  return scimErrorResponse(new ScimError(500, `The console failed to answer (request ${requestId}).`));
};
