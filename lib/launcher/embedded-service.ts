/**
 * The embedded default: the built-in User Group Service on loopback, its database and the console's
 * API key under DATA_DIR. The key is created once and kept in a 0600 file, because the service
 * itself stores only its digest.
 */
import path from 'node:path';
import { z } from 'zod';
import type { ConsoleConfig } from '@/lib/config';
import { readSecretFile, writeSecretFile } from '@/lib/secret-file';
import { createUserGroupApi, UpstreamError } from '@/lib/user-group-api/client';
import { createApiKey, startUserGroupService } from '@/lib/user-group-service';

/** The User Group Service the console talks to, and how to stop it when the console stops. */
export interface Upstream {
  url: string;
  apiKey: string;
  close(): Promise<void>;
}

const apiKeyFileSchema = z.object({ id: z.union([z.string(), z.number()]), key: z.string().min(1) });

export async function ensureEmbeddedService(
  config: ConsoleConfig,
  log: (message: string) => void,
): Promise<Upstream> {
  const database = path.join(config.dataDir, 'user-group-service.sqlite');
  const service = await startUserGroupService({
    host: '127.0.0.1',
    port: 0,
    database,
    logLevel: config.serviceLogLevel,
  });

  const keyFile = path.join(config.dataDir, 'console-api-key.json');
  let apiKey = readApiKey(keyFile);
  if (!apiKey || !(await isAccepted(service.url, apiKey))) {
    const created = await createApiKey({
      database,
      environment: 'Customer',
      name: 'console (embedded default)',
    });
    writeSecretFile(keyFile, JSON.stringify({ id: created.id, key: created.key }));
    apiKey = created.key;
    log(`created the console's API key for the embedded service (kept in ${keyFile})`);
  }
  log(`embedded User Group Service on ${service.url} (database ${database})`);
  return { url: service.url, apiKey, close: () => service.close() };
}

function readApiKey(file: string): string | null {
  try {
    const parsed = apiKeyFileSchema.safeParse(JSON.parse(readSecretFile(file) ?? ''));
    return parsed.success ? parsed.data.key : null;
  } catch {
    return null;
  }
}

/** A rotation of a token that cannot exist: 404 means the key was accepted, 401 that it was not. */
async function isAccepted(baseUrl: string, apiKey: string): Promise<boolean> {
  try {
    await createUserGroupApi({ baseUrl, apiKey }).rotate({ current_token: '0'.repeat(64) });
    return true;
  } catch (error) {
    if (error instanceof UpstreamError && error.kind === 'unauthorized') return false;
    if (error instanceof UpstreamError && error.kind === 'not_found') return true;
    throw error;
  }
}
