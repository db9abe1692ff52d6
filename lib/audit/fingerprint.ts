import { createHash } from 'node:crypto';

/**
 * What the audit log keeps of a token: the first 12 hex characters of its SHA-256. Enough to tell
 * two tokens apart and to match a token someone holds against the log, never enough to use it.
 */
export function tokenFingerprint(token: string | null | undefined): string | null {
  if (!token) return null;
  return createHash('sha256').update(token, 'utf8').digest('hex').slice(0, 12);
}
