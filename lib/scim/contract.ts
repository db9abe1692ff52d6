/**
 * What a SCIM client sends (RFC 7643 §4.1 User, §4.2 Group; RFC 7644 §3.5.2 PatchOp), as far as the
 * console reads it. Attributes the console does not keep (title, phone numbers, the enterprise
 * extension…) are let through and ignored: Okta and Entra ID send them with every User.
 */
import * as z from 'zod/mini';

export const SCIM_USER_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:User';
export const SCIM_GROUP_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:Group';
export const SCIM_LIST_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:ListResponse';

const text = (max: number) =>
  z.string().check(z.trim(), z.maxLength(max, { error: `is longer than ${max}` }));

/** Entra ID sends booleans as "True" / "False" in PATCH values. */
export const scimBoolean = z.union([
  z.boolean(),
  z.pipe(
    z.string().check(z.regex(/^(true|false)$/i, { error: 'must be true or false' })),
    z.transform((value) => value.toLowerCase() === 'true'),
  ),
]);

const email = z.looseObject({
  value: text(254),
  primary: z.optional(scimBoolean),
  type: z.optional(z.string()),
});

export const scimNameSchema = z.looseObject({
  formatted: z.optional(text(120)),
  givenName: z.optional(text(120)),
  familyName: z.optional(text(120)),
});

export const scimUserSchema = z.looseObject({
  schemas: z.optional(z.array(z.string())),
  userName: text(254).check(z.minLength(1, { error: 'must not be empty' })),
  externalId: z.optional(z.nullable(text(254))),
  displayName: z.optional(z.nullable(text(120))),
  name: z.optional(scimNameSchema),
  emails: z.optional(z.array(email)),
  active: z.optional(scimBoolean),
});
export type ScimUserInput = z.infer<typeof scimUserSchema>;

const patchOperationSchema = z.looseObject({
  // Entra ID writes "Replace", "Add", "Remove".
  op: z.pipe(
    z.string().check(z.regex(/^(add|replace|remove)$/i, { error: 'must be add, replace or remove' })),
    z.transform((op) => op.toLowerCase() as 'add' | 'replace' | 'remove'),
  ),
  path: z.optional(z.string().check(z.maxLength(512))),
  value: z.optional(z.unknown()),
});
export type PatchOperation = z.infer<typeof patchOperationSchema>;

export const patchRequestSchema = z.looseObject({
  schemas: z.optional(z.array(z.string())),
  Operations: z.array(patchOperationSchema).check(z.minLength(1), z.maxLength(1000)),
});

const member = z.looseObject({ value: z.string().check(z.minLength(1)), display: z.optional(z.string()) });
export const scimMembersSchema = z.array(member);

export const scimGroupSchema = z.looseObject({
  schemas: z.optional(z.array(z.string())),
  displayName: text(200).check(z.minLength(1, { error: 'must not be empty' })),
  externalId: z.optional(z.nullable(text(254))),
  members: z.optional(scimMembersSchema),
});
