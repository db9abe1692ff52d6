import { deleteGroup, getGroup, patchGroupRoute, replaceGroup } from '@/lib/scim/group-handlers';
import { scimRoute } from '@/lib/scim/route';

/** One SCIM Group of the directory (lib/scim). */
export const GET = scimRoute('scim.groups.get', getGroup);
export const PUT = scimRoute('scim.groups.replace', replaceGroup);
export const PATCH = scimRoute('scim.groups.patch', patchGroupRoute);
export const DELETE = scimRoute('scim.groups.delete', deleteGroup);
