/**
 * better-auth's signing secret: BETTER_AUTH_SECRET when set, else one generated on first start and
 * kept in DATA_DIR/auth-secret, so sessions survive restarts.
 */
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { readOrCreateSecretFile } from '@/lib/secret-file';

export function resolveAuthSecret(configured: string | undefined, dataDir: string): string {
  if (configured) return configured;
  return readOrCreateSecretFile(path.join(dataDir, 'auth-secret'), () =>
    randomBytes(32).toString('base64url'),
  );
}
