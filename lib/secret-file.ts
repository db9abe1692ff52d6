/**
 * Secrets kept in files of their own (better-auth's secret, the console's API key for the embedded
 * service, the service's encryption key): mode 0600 in a 0700 directory, never seen half-written.
 */
import { randomBytes } from 'node:crypto';
import { linkSync, mkdirSync, readFileSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** The file's text (trimmed), or null when there is no such file. */
export function readSecretFile(file: string): string | null {
  try {
    return readFileSync(file, 'utf8').trim();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}

function writeTemporary(file: string, text: string): string {
  mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const temporary = `${file}.${randomBytes(6).toString('hex')}.tmp`;
  writeFileSync(temporary, `${text}\n`, { mode: 0o600, flag: 'wx' });
  return temporary;
}

/** Replaces the file at once: a reader sees the old secret or the new one. */
export function writeSecretFile(file: string, text: string): void {
  renameSync(writeTemporary(file, text), file);
}

/**
 * The secret in the file, or one made by `create` and stored there. When two processes race, one
 * secret wins and both answer it: the new file is linked into place, which fails if one exists.
 */
export function readOrCreateSecretFile(file: string, create: () => string): string {
  const existing = readSecretFile(file);
  if (existing) return existing;
  const temporary = writeTemporary(file, create());
  try {
    linkSync(temporary, file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  } finally {
    unlinkSync(temporary);
  }
  const created = readSecretFile(file);
  if (!created) throw new Error(`could not read the secret file ${file}`);
  return created;
}
