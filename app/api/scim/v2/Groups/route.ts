import { createGroup, listGroups } from '@/lib/scim/group-handlers';
import { scimRoute } from '@/lib/scim/route';

/** SCIM 2.0 Groups (lib/scim): a group's role reaches its members by SCIM_GROUP_ROLES. */
export const GET = scimRoute('scim.groups.list', listGroups);
export const POST = scimRoute('scim.groups.create', createGroup);
