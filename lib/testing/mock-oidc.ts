/**
 * A minimal OpenID Connect provider for tests (authorization code + PKCE, RS256 ID tokens),
 * standing in for Okta / Google Workspace / Entra ID. Its sign-in page asks for an email, whether
 * the IdP vouches for it (`email_verified`, checked by default) and, optionally, a subject (by
 * default derived from the email). Like an IdP whose users may set their own email, it signs in
 * whoever submits the form as that person. Loopback only, throwaway keys, test use only.
 */
import { createHash, createSign, generateKeyPairSync, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { realClock } from '@/lib/clock';

export interface MockOidcSettings {
  /** 0 picks a free port. */
  port: number;
  clientId: string;
  clientSecret: string;
}

export interface MockOidc {
  issuer: string;
  close(): Promise<void>;
}

/** Who the IdP says signed in. */
export interface MockIdentity {
  email: string;
  emailVerified: boolean;
  subject: string;
  /**
   * How long ago the IdP authenticated the person, in seconds (its ID token's `auth_time`); null
   * leaves `auth_time` out, as an IdP that ignores `max_age` might.
   */
  authAgeSeconds: number | null;
}

interface PendingCode {
  identity: MockIdentity;
  clientId: string;
  redirectUri: string;
  nonce: string | undefined;
  codeChallenge: string | undefined;
}

const base64url = (input: Buffer | string) => Buffer.from(input).toString('base64url');

const escapeHtml = (value: string) =>
  value.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);

function subjectOf(email: string): string {
  return createHash('sha256').update(email).digest('hex').slice(0, 24);
}

/** The identity a sign-in form (or a test posting it) submitted. */
function identityFromForm(form: URLSearchParams): MockIdentity {
  const email = (form.get('login_email') ?? '').toLowerCase();
  return {
    email,
    emailVerified: form.get('email_verified') === 'on',
    subject: form.get('subject')?.trim() || subjectOf(email),
    authAgeSeconds: form.get('auth_age') === 'none' ? null : Number(form.get('auth_age') ?? 0) || 0,
  };
}

function send(response: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  response.writeHead(status, {
    'content-type': typeof body === 'string' ? 'text/html; charset=utf-8' : 'application/json',
    'cache-control': 'no-store',
    ...headers,
  });
  response.end(text);
}

async function readForm(request: IncomingMessage): Promise<URLSearchParams> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
}

export async function startMockOidc(settings: MockOidcSettings): Promise<MockOidc> {
  let issuer = `http://127.0.0.1:${settings.port}`;
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const keyId = randomBytes(8).toString('hex');
  const jwk = { ...publicKey.export({ format: 'jwk' }), kid: keyId, alg: 'RS256', use: 'sig' };
  const codes = new Map<string, PendingCode>();
  const accessTokens = new Map<string, MockIdentity>();

  const claims = (identity: MockIdentity) => ({
    sub: identity.subject,
    email: identity.email,
    email_verified: identity.emailVerified,
    name: `SSO ${identity.email.split('@')[0]}`,
  });

  const idToken = (identity: MockIdentity, clientId: string, nonce: string | undefined): string => {
    const now = Math.floor(realClock.now() / 1000);
    const header = base64url(JSON.stringify({ alg: 'RS256', typ: 'JWT', kid: keyId }));
    const payload = base64url(
      JSON.stringify({
        iss: issuer,
        aud: clientId,
        iat: now,
        exp: now + 300,
        ...(identity.authAgeSeconds === null ? {} : { auth_time: now - identity.authAgeSeconds }),
        ...claims(identity),
        ...(nonce ? { nonce } : {}),
      }),
    );
    const signature = createSign('RSA-SHA256').update(`${header}.${payload}`).sign(privateKey);
    return `${header}.${payload}.${base64url(signature)}`;
  };

  const server = createServer(async (request, response) => {
    const url = new URL(request.url ?? '/', issuer);
    if (request.method === 'GET' && url.pathname === '/.well-known/openid-configuration') {
      return send(response, 200, {
        issuer,
        authorization_endpoint: `${issuer}/authorize`,
        token_endpoint: `${issuer}/token`,
        userinfo_endpoint: `${issuer}/userinfo`,
        jwks_uri: `${issuer}/jwks`,
        response_types_supported: ['code'],
        subject_types_supported: ['public'],
        id_token_signing_alg_values_supported: ['RS256'],
        code_challenge_methods_supported: ['S256'],
        token_endpoint_auth_methods_supported: ['client_secret_post', 'client_secret_basic'],
      });
    }
    if (request.method === 'GET' && url.pathname === '/jwks') return send(response, 200, { keys: [jwk] });
    if (request.method === 'GET' && url.pathname === '/authorize') {
      if (url.searchParams.get('client_id') !== settings.clientId)
        return send(response, 400, 'unknown client');
      const hidden = [...url.searchParams]
        .map(
          ([name, value]) => `<input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value)}">`,
        )
        .join('');
      return send(
        response,
        200,
        `<!doctype html><title>Mock IdP</title><h1>Mock IdP sign-in</h1><form method="post" action="/authorize">${hidden}` +
          '<label>Email <input name="login_email" type="email"></label>' +
          '<label><input name="email_verified" type="checkbox" checked> Email verified</label>' +
          '<label>Subject <input name="subject"></label><button>Continue</button></form>',
      );
    }
    if (request.method === 'POST' && url.pathname === '/authorize') {
      const form = await readForm(request);
      const redirectUri = form.get('redirect_uri') ?? '';
      const code = randomBytes(16).toString('hex');
      codes.set(code, {
        identity: identityFromForm(form),
        clientId: form.get('client_id') ?? '',
        redirectUri,
        nonce: form.get('nonce') ?? undefined,
        codeChallenge: form.get('code_challenge') ?? undefined,
      });
      const target = new URL(redirectUri);
      target.searchParams.set('code', code);
      target.searchParams.set('state', form.get('state') ?? '');
      target.searchParams.set('iss', issuer);
      return send(response, 302, '', { location: target.toString() });
    }
    if (request.method === 'POST' && url.pathname === '/token') {
      const form = await readForm(request);
      const basic = request.headers.authorization?.startsWith('Basic ')
        ? Buffer.from(request.headers.authorization.slice(6), 'base64')
            .toString('utf8')
            .split(':')
            .map(decodeURIComponent)
        : [];
      const clientId = form.get('client_id') ?? basic[0];
      const clientSecret = form.get('client_secret') ?? basic[1];
      const pending = codes.get(form.get('code') ?? '');
      codes.delete(form.get('code') ?? '');
      const verifier = form.get('code_verifier') ?? '';
      const challengeOk =
        !pending?.codeChallenge ||
        base64url(createHash('sha256').update(verifier).digest()) === pending.codeChallenge;
      if (
        !pending ||
        clientId !== settings.clientId ||
        clientSecret !== settings.clientSecret ||
        pending.redirectUri !== form.get('redirect_uri') ||
        !challengeOk
      ) {
        return send(response, 400, { error: 'invalid_grant' });
      }
      const accessToken = randomBytes(24).toString('hex');
      accessTokens.set(accessToken, pending.identity);
      return send(response, 200, {
        access_token: accessToken,
        token_type: 'Bearer',
        expires_in: 300,
        id_token: idToken(pending.identity, pending.clientId, pending.nonce),
      });
    }
    if (request.method === 'GET' && url.pathname === '/userinfo') {
      const identity = accessTokens.get((request.headers.authorization ?? '').replace(/^Bearer /, ''));
      if (!identity) return send(response, 401, { error: 'invalid_token' });
      return send(response, 200, claims(identity));
    }
    if (url.pathname === '/healthz') return send(response, 200, { ok: true });
    return send(response, 404, { error: 'not_found' });
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(settings.port, '127.0.0.1', () => resolve());
  });
  const address = server.address();
  if (address && typeof address === 'object') issuer = `http://127.0.0.1:${address.port}`;
  return {
    issuer,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
