/**
 * The first admin, created when the console has no operator yet: CONSOLE_ADMIN_EMAIL (default
 * admin@console.localhost) with CONSOLE_ADMIN_PASSWORD, or with a password generated here and
 * returned once so the launcher can print it. Only better-auth's hash of it is stored.
 */
import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import type { ConsoleConfig } from '@/lib/config';
import type { ConsoleDatabase } from '@/lib/db/console-database';
import type { ConsoleAuth } from './options';

export type FirstAdminResult =
  | { created: false }
  | { created: true; email: string; generatedPassword: string | null };

export async function ensureFirstAdmin(
  auth: ConsoleAuth,
  database: ConsoleDatabase,
  config: ConsoleConfig,
): Promise<FirstAdminResult> {
  const { count } = await sql<{ count: number | string }>`select count(*) as count from "user"`
    .execute(database.db)
    .then((result) => result.rows[0] ?? { count: 0 });
  // A bigint string on PostgreSQL.
  if (Number(count) > 0) return { created: false };

  const generatedPassword = config.auth.firstAdmin.password ? null : generatePassword();
  const password = config.auth.firstAdmin.password ?? generatedPassword ?? '';
  // No headers: a trusted server-side call, which the admin plugin allows without a session.
  await auth.api.createUser({
    body: {
      email: config.auth.firstAdmin.email,
      name: 'First admin',
      password,
      role: 'admin',
      data: { emailVerified: true },
    },
  });
  return { created: true, email: config.auth.firstAdmin.email, generatedPassword };
}

/** 20 characters from an alphabet without look-alikes: about 116 bits. */
function generatePassword(length = 20): string {
  const alphabet = 'abcdefghijkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789';
  const bytes = randomBytes(length * 2);
  let password = '';
  for (const byte of bytes) {
    // Rejection sampling keeps the distribution even.
    if (byte >= 256 - (256 % alphabet.length)) continue;
    password += alphabet[byte % alphabet.length];
    if (password.length === length) return password;
  }
  return password + generatePassword(length - password.length);
}
