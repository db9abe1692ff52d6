/**
 * SCIM's own error answer (RFC 7644 §3.12): `{ schemas: [Error], status: "409", scimType, detail }`
 * in application/scim+json. Thrown as ScimError from anywhere below a SCIM route; the frame
 * (lib/scim/route.ts) answers it. The detail is the console's own words, never a library's text.
 */
const SCIM_ERROR_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:Error';
const SCIM_CONTENT_TYPE = 'application/scim+json';

/** The scimType values of RFC 7644 Table 9 the console answers. */
type ScimType = 'invalidFilter' | 'invalidSyntax' | 'invalidValue' | 'uniqueness' | 'noTarget' | 'mutability';

export class ScimError extends Error {
  override name = 'ScimError';

  constructor(
    readonly status: number,
    readonly detail: string,
    readonly scimType?: ScimType,
  ) {
    super(detail);
  }
}

export function scimJson(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': SCIM_CONTENT_TYPE, ...headers },
  });
}

export function scimErrorResponse(error: ScimError, headers: Record<string, string> = {}): Response {
  return scimJson(
    {
      schemas: [SCIM_ERROR_SCHEMA],
      status: String(error.status),
      ...(error.scimType ? { scimType: error.scimType } : {}),
      detail: error.detail,
    },
    error.status,
    headers,
  );
}

export const scimErrors = {
  notFound: (what = 'User') => new ScimError(404, `No ${what} has that id.`),
  invalidValue: (detail: string) => new ScimError(400, detail, 'invalidValue'),
  invalidSyntax: (detail: string) => new ScimError(400, detail, 'invalidSyntax'),
  invalidFilter: () =>
    new ScimError(
      400,
      'The console answers filters of the form userName eq "…", externalId eq "…" (Users) and displayName eq "…" (Groups).',
      'invalidFilter',
    ),
  uniqueness: (detail: string) => new ScimError(409, detail, 'uniqueness'),
};
