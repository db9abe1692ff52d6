/** The service's PostgreSQL pool when a connection is reset mid-query (a host gone, a firewall). */
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { testDialect } from '@/lib/testing/console-test-database';
import { pgRelay, resetWhileRunning } from '@/lib/testing/pg-relay';
import { openDatabase } from './database';

describe.runIf(testDialect() === 'postgres')('the service on PostgreSQL', () => {
  it('fails a query whose connection is reset, keeps running, and reconnects', async () => {
    const relay = await pgRelay();
    const database = openDatabase(relay.url);
    try {
      const failure = await resetWhileRunning(relay, (query) => sql.raw(query).execute(database.db));
      expect(failure).toBeInstanceOf(Error);
      await expect(sql`select 1 as one`.execute(database.db)).resolves.toMatchObject({ rows: [{ one: 1 }] });
      expect(relay.connections()).toBe(2);
    } finally {
      await database.close();
      await relay.close();
    }
  });
});
