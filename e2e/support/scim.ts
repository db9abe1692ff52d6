/** SCIM in the e2e run: the token the console is started with, as an identity provider holds it. */
export const scimToken = 'e2e-scim-token-7c1d0a4e9b2f4c6d8e0a1b3c5d7e9f10';

/** The console's SCIM variables for the run. */
export const scimEnv = {
  SCIM_TOKEN: scimToken,
  SCIM_GROUP_ROLES: 'Console Admins=admin,Console Support=support',
};
