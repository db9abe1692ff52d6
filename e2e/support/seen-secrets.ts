import { appendFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { e2eDataDir } from './servers';

/**
 * Every token, key and password the run saw, one per line, so the last step can search the
 * console's logs for them (e2e/secrets.teardown.ts). The file lives with the run's throwaway data.
 */
const seenSecretsFile = path.join(e2eDataDir, 'seen-secrets.txt');

export function rememberSecrets(...secrets: Array<string | null | undefined>): void {
  const lines = secrets.filter(
    (secret): secret is string => typeof secret === 'string' && secret.length >= 8,
  );
  if (lines.length === 0) return;
  mkdirSync(path.dirname(seenSecretsFile), { recursive: true });
  appendFileSync(seenSecretsFile, `${lines.join('\n')}\n`);
}

export function seenSecrets(): string[] {
  if (!existsSync(seenSecretsFile)) return [];
  return [...new Set(readFileSync(seenSecretsFile, 'utf8').split('\n').filter(Boolean))];
}

/** The user group tokens in a console answer (get-or-create and rotate carry `user_group.token`). */
export function tokensIn(body: string): string[] {
  try {
    const parsed = JSON.parse(body) as { user_group?: { token?: unknown } };
    const token = parsed.user_group?.token;
    return typeof token === 'string' ? [token] : [];
  } catch {
    return [];
  }
}
