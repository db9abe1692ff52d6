/** The mock OpenID Connect provider of the e2e run (e2e/support/mock-oidc.ts) and how the console meets it. */
const port = Number(process.env.MOCK_OIDC_PORT ?? 3313);

export const mockOidc = {
  port,
  issuer: `http://127.0.0.1:${port}`,
  clientId: 'e2e-console',
  clientSecret: 'e2e-oidc-client-secret-5Tr8',
  displayName: 'Mock IdP',
};

/** The console's SSO variables for the run. */
export const oidcEnv = {
  OIDC_ISSUER: mockOidc.issuer,
  OIDC_CLIENT_ID: mockOidc.clientId,
  OIDC_CLIENT_SECRET: mockOidc.clientSecret,
  OIDC_PROVIDER_NAME: mockOidc.displayName,
  // Newcomers from the company's domain are welcome as viewers; the default admits none.
  OIDC_NEW_OPERATOR_ROLE: 'viewer',
  OIDC_ALLOWED_DOMAINS: 'e2e.example',
};
