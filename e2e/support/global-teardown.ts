import { dropE2eDatabase, e2eOnPostgres } from './postgres-database';

/** A PostgreSQL run leaves no database behind. */
export default async function globalTeardown(): Promise<void> {
  if (e2eOnPostgres) await dropE2eDatabase();
}
