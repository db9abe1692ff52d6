import { z } from 'zod';
import { type Environment, environments } from '@/lib/environments';
import { ConfigError, httpUrl, optional, type ParsedEnv } from './env-values';

export interface UpstreamConfig {
  baseUrl: string;
  apiKey: string;
  timeoutMs: number;
  /** Bulk jobs' pace against this server; null: unlimited. */
  requestsPerMinute: number | null;
}

/** The pace of a vendor that says nothing else: 180 a minute per caller is typical. */
const DEFAULT_REQUESTS_PER_MINUTE = 180;

/** A bulk job's pace against a server: requests per minute, or "unlimited" (the embedded service). */
const requestsPerMinute = (name: string) =>
  z
    .string()
    .trim()
    .transform((value, context) => {
      if (value.toLowerCase() === 'unlimited') return null;
      const rate = Number(value);
      if (!Number.isInteger(rate) || rate < 1) {
        context.addIssue({
          code: 'custom',
          message: `${name} must be a whole number of requests per minute or "unlimited"`,
        });
        return z.NEVER;
      }
      return rate;
    });

/** Each environment's User Group API: its server, its key and the pace of bulk jobs against it. */
export const upstreamEnv = {
  USER_GROUP_API_URL: optional(httpUrl('USER_GROUP_API_URL')),
  USER_GROUP_API_KEY: optional(z.string()),
  USER_GROUP_API_ENVIRONMENT: z
    .enum(environments, { error: 'USER_GROUP_API_ENVIRONMENT must be Customer or Testing' })
    .default('Customer'),
  USER_GROUP_API_KEY_CUSTOMER: optional(z.string()),
  USER_GROUP_API_KEY_TESTING: optional(z.string()),
  USER_GROUP_API_URL_CUSTOMER: optional(httpUrl('USER_GROUP_API_URL_CUSTOMER')),
  USER_GROUP_API_URL_TESTING: optional(httpUrl('USER_GROUP_API_URL_TESTING')),
  USER_GROUP_API_TIMEOUT_MS: z.coerce.number().int().positive().default(10_000),
  USER_GROUP_API_REQUESTS_PER_MINUTE: optional(requestsPerMinute('USER_GROUP_API_REQUESTS_PER_MINUTE')),
  USER_GROUP_API_REQUESTS_PER_MINUTE_CUSTOMER: optional(
    requestsPerMinute('USER_GROUP_API_REQUESTS_PER_MINUTE_CUSTOMER'),
  ),
  USER_GROUP_API_REQUESTS_PER_MINUTE_TESTING: optional(
    requestsPerMinute('USER_GROUP_API_REQUESTS_PER_MINUTE_TESTING'),
  ),
};

type UpstreamSettings = ParsedEnv<typeof upstreamEnv>;

/**
 * Each environment's server and key, null where it has none; refused when a key has no server or
 * the shared server no key.
 */
export function upstreamsConfig(settings: UpstreamSettings): Record<Environment, UpstreamConfig | null> {
  const upstreams = upstreamsOf(settings);
  // A key without a server must not fall back to the embedded service: "Customer (production)"
  // would then be a local sandbox.
  for (const environment of environments) {
    const variable = `USER_GROUP_API_KEY_${environment.toUpperCase()}`;
    const key =
      settings[variable as 'USER_GROUP_API_KEY_CUSTOMER'] ??
      (settings.USER_GROUP_API_ENVIRONMENT === environment ? settings.USER_GROUP_API_KEY : undefined);
    if (key && !upstreams[environment]) {
      throw new ConfigError(
        `An API key for ${environment} is set but no server: set USER_GROUP_API_URL (or USER_GROUP_API_URL_${environment.toUpperCase()}).`,
      );
    }
  }
  if (settings.USER_GROUP_API_URL && !upstreams.Customer && !upstreams.Testing) {
    throw new ConfigError(
      'USER_GROUP_API_URL is set but no API key is: set USER_GROUP_API_KEY_CUSTOMER and/or USER_GROUP_API_KEY_TESTING (or USER_GROUP_API_KEY).',
    );
  }
  return upstreams;
}

/**
 * Per environment: its own key (USER_GROUP_API_KEY_<ENV>), else the single USER_GROUP_API_KEY when
 * USER_GROUP_API_ENVIRONMENT names it; its own URL (USER_GROUP_API_URL_<ENV>), else the shared one.
 */
function upstreamsOf(settings: UpstreamSettings): Record<Environment, UpstreamConfig | null> {
  const keys: Record<Environment, string | undefined> = {
    Customer: settings.USER_GROUP_API_KEY_CUSTOMER,
    Testing: settings.USER_GROUP_API_KEY_TESTING,
  };
  keys[settings.USER_GROUP_API_ENVIRONMENT] ??= settings.USER_GROUP_API_KEY;
  const urls: Record<Environment, string | undefined> = {
    Customer: settings.USER_GROUP_API_URL_CUSTOMER ?? settings.USER_GROUP_API_URL,
    Testing: settings.USER_GROUP_API_URL_TESTING ?? settings.USER_GROUP_API_URL,
  };
  const paces: Record<Environment, number | null | undefined> = {
    Customer: settings.USER_GROUP_API_REQUESTS_PER_MINUTE_CUSTOMER,
    Testing: settings.USER_GROUP_API_REQUESTS_PER_MINUTE_TESTING,
  };
  const upstream = (environment: Environment): UpstreamConfig | null => {
    const apiKey = keys[environment];
    const baseUrl = urls[environment];
    const pace =
      paces[environment] !== undefined ? paces[environment] : settings.USER_GROUP_API_REQUESTS_PER_MINUTE;
    return apiKey && baseUrl
      ? {
          baseUrl,
          apiKey,
          timeoutMs: settings.USER_GROUP_API_TIMEOUT_MS,
          requestsPerMinute: pace === undefined ? DEFAULT_REQUESTS_PER_MINUTE : pace,
        }
      : null;
  };
  return { Customer: upstream('Customer'), Testing: upstream('Testing') };
}
