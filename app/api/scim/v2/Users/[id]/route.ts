import { scimRoute } from '@/lib/scim/route';
import { deleteUser, getUser, patchUserRoute, replaceUser } from '@/lib/scim/user-handlers';

/** One SCIM User, an operator the directory manages (lib/scim). */
export const GET = scimRoute('scim.users.get', getUser);
export const PUT = scimRoute('scim.users.replace', replaceUser);
export const PATCH = scimRoute('scim.users.patch', patchUserRoute);
export const DELETE = scimRoute('scim.users.delete', deleteUser);
