import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, parseConfig } from './index';

describe('parseConfig', () => {
  it('defaults: ./data, localhost URL on PORT, 12 h sessions, 5/60 sign-ins, no SSO', () => {
    const config = parseConfig({ PORT: '3311' });
    expect(config.database).toEqual({ dialect: 'sqlite', file: path.resolve('data/console.sqlite') });
    expect(config.consoleUrl.href).toBe('http://localhost:3311/');
    expect(config.trustedOrigins).toEqual(['http://localhost:3311', 'http://127.0.0.1:3311']);
    expect(config.secureCookies).toBe(false);
    expect(config.auth.sessionTtlSeconds).toBe(12 * 3600);
    expect(config.auth.signInRateLimit).toEqual({ max: 5, windowSeconds: 60 });
    expect(config.auth.firstAdmin).toEqual({ email: 'admin@console.localhost', password: undefined });
    expect(config.oidc).toBeNull();
  });

  it('makes cookies Secure and trusts only the public origin when CONSOLE_URL is https', () => {
    const config = parseConfig({ PORT: '3000', CONSOLE_URL: 'https://console.example.com/' });
    expect(config.secureCookies).toBe(true);
    // A page served on someone's localhost is not the console reached over https.
    expect(config.trustedOrigins).toEqual(['https://console.example.com']);
  });

  it('trusts loopback origins beside an http console URL', () => {
    const config = parseConfig({ PORT: '3000', CONSOLE_URL: 'http://console.internal:3000' });
    expect(config.trustedOrigins).toEqual([
      'http://console.internal:3000',
      'http://localhost:3000',
      'http://127.0.0.1:3000',
    ]);
  });

  it('trusts no proxy unless told, and refuses a proxy list it cannot read', () => {
    expect(parseConfig({}).trustedProxies).toBeNull();
    expect(parseConfig({ CONSOLE_TRUSTED_PROXIES: '10.0.0.0/8' }).trustedProxies).not.toBeNull();
    expect(() => parseConfig({ CONSOLE_TRUSTED_PROXIES: 'my-proxy' })).toThrow(/CONSOLE_TRUSTED_PROXIES/);
  });

  it('paces bulk jobs at 180 a minute unless told, per environment or "unlimited"', () => {
    const keys = {
      USER_GROUP_API_URL: 'http://127.0.0.1:9',
      USER_GROUP_API_KEY_CUSTOMER: 'c',
      USER_GROUP_API_KEY_TESTING: 't',
    };
    const paces = (env: Record<string, string>) => {
      const { upstreams } = parseConfig({ ...keys, ...env });
      return [upstreams.Customer?.requestsPerMinute, upstreams.Testing?.requestsPerMinute];
    };
    expect(paces({})).toEqual([180, 180]);
    expect(paces({ USER_GROUP_API_REQUESTS_PER_MINUTE: 'unlimited' })).toEqual([null, null]);
    expect(
      paces({ USER_GROUP_API_REQUESTS_PER_MINUTE: '600', USER_GROUP_API_REQUESTS_PER_MINUTE_CUSTOMER: '60' }),
    ).toEqual([60, 600]);
    expect(() => paces({ USER_GROUP_API_REQUESTS_PER_MINUTE_TESTING: 'fast' })).toThrow(
      /USER_GROUP_API_REQUESTS_PER_MINUTE_TESTING must be a whole number/,
    );
    expect(() => parseConfig({ CONSOLE_JOB_TOKEN_KEY: 'short' })).toThrow(/CONSOLE_JOB_TOKEN_KEY/);
    expect(parseConfig({}).jobs).toEqual({ concurrency: 8, tokenKey: undefined });
  });

  it('keeps every audit entry unless AUDIT_RETENTION_DAYS says how many days to keep', () => {
    expect(parseConfig({}).audit).toEqual({ retentionDays: null, signingKey: null });
    expect(parseConfig({ AUDIT_RETENTION_DAYS: '' }).audit).toEqual({
      retentionDays: null,
      signingKey: null,
    });
    expect(parseConfig({ AUDIT_RETENTION_DAYS: '400' }).audit).toEqual({
      retentionDays: 400,
      signingKey: null,
    });
    for (const value of ['0', '1.5', 'a year'])
      expect(() => parseConfig({ AUDIT_RETENTION_DAYS: value })).toThrow(/AUDIT_RETENTION_DAYS/);
  });

  it("limits the console's own server like the service, with two minutes for a whole request, unless told", () => {
    expect(parseConfig({}).http).toEqual({
      headersTimeoutMs: 10_000,
      requestTimeoutMs: 120_000,
      keepAliveTimeoutMs: 5_000,
      maxConnections: 1024,
    });
    const told = parseConfig({
      CONSOLE_HEADERS_TIMEOUT_MS: '2000',
      CONSOLE_REQUEST_TIMEOUT_MS: '4000',
      CONSOLE_KEEP_ALIVE_TIMEOUT_MS: '1000',
      CONSOLE_MAX_CONNECTIONS: '7',
    });
    expect(told.http).toEqual({
      headersTimeoutMs: 2_000,
      requestTimeoutMs: 4_000,
      keepAliveTimeoutMs: 1_000,
      maxConnections: 7,
    });
    expect(() => parseConfig({ CONSOLE_MAX_CONNECTIONS: '0' })).toThrow(
      /CONSOLE_MAX_CONNECTIONS must be above zero/,
    );
    expect(() => parseConfig({ CONSOLE_HEADERS_TIMEOUT_MS: '1.5' })).toThrow(/CONSOLE_HEADERS_TIMEOUT_MS/);
    expect(() => parseConfig({ CONSOLE_KEEP_ALIVE_TIMEOUT_MS: 'soon' })).toThrow(
      /CONSOLE_KEEP_ALIVE_TIMEOUT_MS/,
    );
    expect(() =>
      parseConfig({ CONSOLE_HEADERS_TIMEOUT_MS: '60000', CONSOLE_REQUEST_TIMEOUT_MS: '30000' }),
    ).toThrow(/CONSOLE_HEADERS_TIMEOUT_MS must not exceed CONSOLE_REQUEST_TIMEOUT_MS/);
  });

  it('turns the sign-in limit off or reads attempts/seconds', () => {
    expect(parseConfig({ CONSOLE_SIGN_IN_RATE_LIMIT: 'off' }).auth.signInRateLimit).toBeNull();
    expect(parseConfig({ CONSOLE_SIGN_IN_RATE_LIMIT: '10 / 300' }).auth.signInRateLimit).toEqual({
      max: 10,
      windowSeconds: 300,
    });
    expect(() => parseConfig({ CONSOLE_SIGN_IN_RATE_LIMIT: 'lots' })).toThrow(ConfigError);
  });

  it('builds SSO from an issuer, with the discovery document under it', () => {
    const { oidc } = parseConfig({
      OIDC_ISSUER: 'https://acme.okta.com/',
      OIDC_CLIENT_ID: 'client',
      OIDC_CLIENT_SECRET: 'secret',
      OIDC_PROVIDER_NAME: 'Okta',
    });
    expect(oidc).toMatchObject({
      providerId: 'oidc',
      displayName: 'Okta',
      discoveryUrl: 'https://acme.okta.com/.well-known/openid-configuration',
      scopes: ['openid', 'email', 'profile'],
      // A public IdP admits the world: by default SSO admits only operators an admin added.
      newOperatorRole: null,
      allowedDomains: null,
    });
  });

  it('reads the role of SSO newcomers and the allowed email domains', () => {
    const { oidc } = parseConfig({
      OIDC_ISSUER: 'https://idp.example',
      OIDC_CLIENT_ID: 'client',
      OIDC_NEW_OPERATOR_ROLE: 'viewer',
      OIDC_ALLOWED_DOMAINS: 'Example.com, example.org',
    });
    expect(oidc).toMatchObject({ newOperatorRole: 'viewer', allowedDomains: ['example.com', 'example.org'] });
    expect(() =>
      parseConfig({
        OIDC_ISSUER: 'https://idp.example',
        OIDC_CLIENT_ID: 'c',
        OIDC_ALLOWED_DOMAINS: '@x',
      }),
    ).toThrow(/OIDC_ALLOWED_DOMAINS/);
  });

  it('refuses half an SSO configuration instead of hiding it', () => {
    expect(() => parseConfig({ OIDC_CLIENT_ID: 'client' })).toThrow(/half configured/);
    expect(() => parseConfig({ OIDC_ISSUER: 'https://idp.example' })).toThrow(/half configured/);
  });

  it('names the variable, never its value, when one is wrong', () => {
    const secret = 'short-secret';
    let message = '';
    try {
      parseConfig({ BETTER_AUTH_SECRET: secret, CONSOLE_ADMIN_PASSWORD: 'tiny' });
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toMatch(/BETTER_AUTH_SECRET/);
    expect(message).toMatch(/CONSOLE_ADMIN_PASSWORD/);
    expect(message).not.toContain(secret);
    expect(message).not.toContain('tiny');
  });

  it('runs on PostgreSQL when DATABASE_URL is a postgres URL, and refuses anything else without echoing it', () => {
    const url = 'postgres://console:s3cret-pw@db.internal:5432/console';
    const BETTER_AUTH_SECRET = 'x'.repeat(32);
    expect(parseConfig({ DATABASE_URL: url, BETTER_AUTH_SECRET }).database).toEqual({
      dialect: 'postgres',
      url,
    });
    expect(parseConfig({ DATABASE_URL: 'postgresql://h/db', BETTER_AUTH_SECRET }).database).toMatchObject({
      dialect: 'postgres',
    });
    // Instances sharing the database share sessions: each generating its own secret would not.
    expect(() => parseConfig({ DATABASE_URL: url })).toThrow(/BETTER_AUTH_SECRET/);
    expect(parseConfig({ DATABASE_URL: '' }).database).toMatchObject({ dialect: 'sqlite' });
    for (const wrong of [
      'mysql://console:s3cret-pw@db.internal/console',
      'postgres://console:s3cret-pw@db.internal',
      './data/s3cret-pw.sqlite',
    ]) {
      let message = '';
      try {
        parseConfig({ DATABASE_URL: wrong });
      } catch (error) {
        expect(error).toBeInstanceOf(ConfigError);
        message = (error as Error).message;
      }
      expect(message).toMatch(/DATABASE_URL must be a PostgreSQL URL/);
      expect(message).not.toContain('s3cret-pw');
    }
    // What follows a NUL, PostgreSQL would read as settings of their own, over the console's.
    expect(() =>
      parseConfig({ DATABASE_URL: 'postgres://h/db?application_name=s3cret%00jit%00on', BETTER_AUTH_SECRET }),
    ).toThrow(/must not hold a NUL byte/);
    // pg drops tabs and line breaks from the URL, and control characters at its end: a name written
    // with one (`opt<TAB>ions`, `options<U+0001>`) became options that replaced the console's own.
    // A line break at the end (read from a file) is trimmed.
    for (const split of [
      'postgres://h/db?opt\tions=-c%20jit%3Don',
      'postgres://h/db?statement\r\n_timeout=0',
      'postgres://h/db?options\x01',
    ])
      expect(() => parseConfig({ DATABASE_URL: split, BETTER_AUTH_SECRET })).toThrow(
        /must not hold a control character/,
      );
    expect(parseConfig({ DATABASE_URL: 'postgres://h/db\n', BETTER_AUTH_SECRET }).database).toEqual({
      dialect: 'postgres',
      url: 'postgres://h/db',
    });
  });

  it('counts rate limits in Redis when REDIS_URL is a redis URL, and refuses anything else without echoing it', () => {
    expect(parseConfig({}).redisUrl).toBeNull();
    expect(parseConfig({ REDIS_URL: 'rediss://:s3cret-pw@cache.internal:6380/2' }).redisUrl).toBe(
      'rediss://:s3cret-pw@cache.internal:6380/2',
    );
    expect(() => parseConfig({ REDIS_URL: 'http://:s3cret-pw@cache.internal' })).toThrow(/REDIS_URL must be/);
    expect(() => parseConfig({ REDIS_URL: 'http://:s3cret-pw@cache.internal' })).not.toThrow(/s3cret-pw/);
  });

  it('treats empty variables (as .env files leave them) as unset', () => {
    const config = parseConfig({
      CONSOLE_URL: '',
      BETTER_AUTH_SECRET: '',
      OIDC_CLIENT_ID: '',
      OIDC_ISSUER: '',
    });
    expect(config.auth.secret).toBeUndefined();
    expect(config.oidc).toBeNull();
  });

  it('gives each environment its key, the single key to the one it names, and refuses a key without a server', () => {
    const both = parseConfig({
      USER_GROUP_API_URL: 'https://api.vendor.example',
      USER_GROUP_API_KEY_CUSTOMER: 'c-key',
      USER_GROUP_API_KEY_TESTING: 't-key',
      USER_GROUP_API_URL_TESTING: 'https://sandbox.vendor.example',
    });
    expect(both.upstreams.Customer).toMatchObject({ baseUrl: 'https://api.vendor.example', apiKey: 'c-key' });
    expect(both.upstreams.Testing).toMatchObject({
      baseUrl: 'https://sandbox.vendor.example',
      apiKey: 't-key',
    });
    const single = parseConfig({
      USER_GROUP_API_URL: 'https://api.vendor.example',
      USER_GROUP_API_KEY: 'one-key',
      USER_GROUP_API_ENVIRONMENT: 'Testing',
    });
    expect(single.upstreams).toMatchObject({ Customer: null, Testing: { apiKey: 'one-key' } });
    expect(parseConfig({}).upstreams).toEqual({ Customer: null, Testing: null });
    expect(() => parseConfig({ USER_GROUP_API_KEY_CUSTOMER: 'c-key' })).toThrow(/no server/);
    expect(() => parseConfig({ USER_GROUP_API_KEY: 'one-key' })).toThrow(/no server/);
    expect(() => parseConfig({ USER_GROUP_API_URL: 'https://api.vendor.example' })).toThrow(/no API key/);
  });
});
