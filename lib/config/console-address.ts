import { z } from 'zod';
import { ConfigError, httpUrl, optional, type ParsedEnv } from './env-values';
import { parseTrustedProxies, type TrustedProxies } from './trusted-proxies';

/** Where people reach the console. */
export const consoleUrlEnv = {
  CONSOLE_URL: optional(httpUrl('CONSOLE_URL')),
};

/** Whom the console believes (proxies' X-Forwarded-For) and lets read /metrics from anywhere. */
export const accessEnv = {
  CONSOLE_TRUSTED_PROXIES: optional(z.string()),
  METRICS_TOKEN: optional(z.string().min(16, { error: 'METRICS_TOKEN must be at least 16 characters' })),
};

/** The console's URL and what it decides: the origins it trusts, and `Secure` cookies. */
export function consoleAddress(settings: ParsedEnv<typeof consoleUrlEnv> & { PORT: number }) {
  const consoleUrl = new URL(settings.CONSOLE_URL ?? `http://localhost:${settings.PORT}`);
  // Loopback origins serve a console reached over plain http only: an https console is reached
  // through its public name, and a page on someone's localhost must not act on it.
  const loopbackOrigins =
    consoleUrl.protocol === 'http:'
      ? [`http://localhost:${settings.PORT}`, `http://127.0.0.1:${settings.PORT}`]
      : [];
  return {
    consoleUrl,
    trustedOrigins: [...new Set([consoleUrl.origin, ...loopbackOrigins])],
    secureCookies: consoleUrl.protocol === 'https:',
  };
}

export function trustedProxiesOf(settings: ParsedEnv<typeof accessEnv>): TrustedProxies {
  const trustedProxies = parseTrustedProxies(settings.CONSOLE_TRUSTED_PROXIES);
  if (trustedProxies instanceof Error) throw new ConfigError(trustedProxies.message);
  return trustedProxies;
}
