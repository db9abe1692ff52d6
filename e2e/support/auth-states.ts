/**
 * The operators of an e2e run and where the setup project saves their signed-in browser state
 * (e2e/.auth/ is git-ignored). Specs pick a role with `test.use({ storageState: adminState })`;
 * the main project runs as `support`.
 */
export const adminState = 'e2e/.auth/admin.json';
export const supportState = 'e2e/.auth/support.json';
export const viewerState = 'e2e/.auth/viewer.json';

export interface Credentials {
  email: string;
  password: string;
  name: string;
}

/** The first admin: the webServer starts the console with these (CONSOLE_ADMIN_EMAIL/PASSWORD). */
export const adminCredentials: Credentials = {
  email: 'admin@e2e.example',
  password: 'e2e-admin-password-7Qm2',
  name: 'First admin',
};

/** Created by the setup project through the operators page. */
export const supportCredentials: Credentials = {
  email: 'support@e2e.example',
  password: 'e2e-support-password-4Kx9',
  name: 'Sam Support',
};

export const viewerCredentials: Credentials = {
  email: 'viewer@e2e.example',
  password: 'e2e-viewer-password-8Wd3',
  name: 'Vera Viewer',
};

export const stateByRole = { admin: adminState, support: supportState, viewer: viewerState } as const;
