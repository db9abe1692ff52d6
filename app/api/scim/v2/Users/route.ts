import { scimRoute } from '@/lib/scim/route';
import { createUser, listUsers } from '@/lib/scim/user-handlers';

/** SCIM 2.0 Users (lib/scim): the identity provider's look-up and create. */
export const GET = scimRoute('scim.users.list', listUsers);
export const POST = scimRoute('scim.users.create', createUser);
