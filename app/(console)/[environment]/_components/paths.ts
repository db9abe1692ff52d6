/** The URLs of an environment's pages (slug: customer, testing). */
export const groupPath = (slug: string, userGroupId: string) =>
  `/${slug}/groups/${encodeURIComponent(userGroupId)}`;

export const createPath = (slug: string, userGroupId: string) =>
  `/${slug}/new?id=${encodeURIComponent(userGroupId)}`;

export const bulkPath = (slug: string) => `/${slug}/bulk`;

export const jobPath = (slug: string, jobId: string) => `/${slug}/bulk/${encodeURIComponent(jobId)}`;
