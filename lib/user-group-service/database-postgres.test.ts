/** The service's PostgreSQL pool when a connection is reset mid-query (a host gone, a firewall). */
import { describe, expect, it } from 'vitest';
import { testDialect } from '@/lib/testing/console-test-database';
import { afterResetMidQuery } from '@/lib/testing/pg-relay';
import { openDatabase } from './database';

describe.runIf(testDialect() === 'postgres')('the service on PostgreSQL', () => {
  it('fails a query whose connection is reset, keeps running, and reconnects', async () => {
    const after = await afterResetMidQuery((url) => openDatabase(url));
    expect(after.failure).toBeInstanceOf(Error);
    expect(after).toMatchObject({ next: [{ one: 1 }], connections: 2 });
  });
});
