/**
 * A PostgreSQL pool on which a connection lost, idle or mid-query, does not crash the process: its
 * query fails, pg-pool closes it, and the next query opens another. pg emits the loss as an 'error'
 * event, which pg-pool listens for only while the connection is idle. Shared by the console's pools
 * (lib/db) and the built-in service's (lib/user-group-service), which import nothing of each other.
 */
import type pg from 'pg';

export function survivesLostConnections(pool: pg.Pool): void {
  pool.on('error', () => {});
  pool.on('connect', (client) => client.on('error', () => {}));
}
