/**
 * The embedded default: the built-in User Group Service on loopback, its database and the console's
 * API keys (one per environment) under DATA_DIR. The keys are created once and kept in a 0600
 * file, because the service itself stores only their digests.
 */
import path from 'node:path';
import { z } from 'zod';
import type { Clock } from '@/lib/clock';
import type { ConsoleConfig } from '@/lib/config';
import { type Environment, environments } from '@/lib/environments';
import { readSecretFile, writeSecretFile } from '@/lib/secret-file';
import { createUserGroupApi, UpstreamError } from '@/lib/user-group-api/client';
import { createApiKey, startUserGroupService } from '@/lib/user-group-service';

/** The User Group Service the console talks to, as the server's environment variables. */
export interface Upstream {
  /** USER_GROUP_API_URL and the per-environment keys, for the console's server. */
  env: Record<string, string>;
  /** Where it is, for the launcher's log line. */
  url: string;
  close(): Promise<void>;
}

const keyFileSchema = z.partialRecord(
  z.enum(environments),
  z.object({ id: z.union([z.string(), z.number()]), key: z.string().min(1) }),
);
type KeyFile = z.infer<typeof keyFileSchema>;

const embeddedKeyFileName = 'console-api-keys.json';

export async function ensureEmbeddedService(
  config: ConsoleConfig,
  log: (message: string) => void,
  clock: Clock,
): Promise<Upstream> {
  const database = path.join(config.dataDir, 'user-group-service.sqlite');
  const service = await startUserGroupService({
    host: '127.0.0.1',
    port: 0,
    database,
    logLevel: config.serviceLogLevel,
    clock,
  });

  const keyFile = path.join(config.dataDir, embeddedKeyFileName);
  const keys: KeyFile = readKeyFile(keyFile);
  let changed = false;
  for (const environment of environments) {
    const stored = keys[environment];
    if (stored && (await isAccepted(service.url, stored.key, clock))) continue;
    const created = await createApiKey({
      database,
      environment,
      name: `console (embedded default, ${environment})`,
    });
    keys[environment] = { id: created.id, key: created.key };
    changed = true;
  }
  if (changed) {
    writeSecretFile(keyFile, JSON.stringify(keys));
    log(`created the console's API keys for the embedded service (kept in ${keyFile})`);
  }
  log(`embedded User Group Service on ${service.url} (database ${database})`);
  const keyOf = (environment: Environment) => keys[environment]?.key ?? '';
  return {
    env: {
      USER_GROUP_API_URL: service.url,
      USER_GROUP_API_KEY_CUSTOMER: keyOf('Customer'),
      USER_GROUP_API_KEY_TESTING: keyOf('Testing'),
      // The embedded service is this machine's own: bulk jobs need not be paced for it.
      USER_GROUP_API_REQUESTS_PER_MINUTE: 'unlimited',
    },
    url: service.url,
    close: () => service.close(),
  };
}

function readKeyFile(file: string): KeyFile {
  try {
    const parsed = keyFileSchema.safeParse(JSON.parse(readSecretFile(file) ?? ''));
    return parsed.success ? parsed.data : {};
  } catch {
    return {};
  }
}

/** A rotation of a token that cannot exist: 404 means the key was accepted, 401 that it was not. */
async function isAccepted(baseUrl: string, apiKey: string, clock: Clock): Promise<boolean> {
  try {
    await createUserGroupApi({ baseUrl, apiKey, clock }).rotate({ current_token: '0'.repeat(64) });
    return true;
  } catch (error) {
    if (error instanceof UpstreamError && error.kind === 'unauthorized') return false;
    if (error instanceof UpstreamError && error.kind === 'not_found') return true;
    throw error;
  }
}
