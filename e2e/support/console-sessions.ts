import path from 'node:path';
import Database from 'better-sqlite3';
import { e2eOnPostgres, queryDatabase, runDatabase } from './postgres-database';
import { consoleDataDir, e2eStepUpMinutes } from './servers';

/**
 * Makes every session of an operator look older than the run's step-up window (its sign-in, the
 * IdP's authentication behind an SSO one, and any step-up), as if that long had passed: nobody
 * waits 12 hours.
 */
export async function ageSessionsPastStepUp(email: string): Promise<void> {
  const past = new Date(Date.now() - (e2eStepUpMinutes + 1) * 60_000);
  const where = 'where "userId" = (select id from "user" where email = $1)';
  if (e2eOnPostgres) {
    await queryDatabase(
      runDatabase,
      `update session set "createdAt" = $2, "idpAuthenticatedAt" = $2, "steppedUpAt" = null ${where}`,
      [email, past],
    );
    return;
  }
  const database = new Database(path.join(consoleDataDir, 'console.sqlite'));
  try {
    database
      .prepare(
        `update session set createdAt = ?, idpAuthenticatedAt = ?, steppedUpAt = null ${where.replace('$1', '?')}`,
      )
      .run(past.toISOString(), past.toISOString(), email);
  } finally {
    database.close();
  }
}

/** Makes every open invitation of an operator expired, as if 72 hours had passed: nobody waits them. */
export async function expireInvitations(email: string): Promise<void> {
  const past = new Date(Date.now() - 60_000).toISOString();
  const where = 'where user_id = (select id from "user" where email = $1) and used_at is null';
  if (e2eOnPostgres) {
    await queryDatabase(runDatabase, `update operator_invitation set expires_at = $2 ${where}`, [
      email,
      past,
    ]);
    return;
  }
  const database = new Database(path.join(consoleDataDir, 'console.sqlite'));
  try {
    database
      .prepare(`update operator_invitation set expires_at = ? ${where.replace('$1', '?')}`)
      .run(past, email);
  } finally {
    database.close();
  }
}
