import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrateAuditLog } from '@/lib/audit/schema';
import { recordAuditEvent, settleAuditEvent } from '@/lib/audit/store';
import { testClock } from '@/lib/clock';
import { type ConsoleDatabase, openConsoleDatabase } from '@/lib/db/console-database';
import { createTestDatabaseLocation, type TestDatabaseLocation } from '@/lib/testing/console-test-database';
import { migrateAuditChain } from './schema';
import { sealAll, sealOnce } from './sealer';
import { auditSigningKey } from './signing-key';
import { verifyAuditChain } from './verify';

// Two consoles on one database (PostgreSQL in the PostgreSQL pass): each writes entries and seals
// on its own connection pool, at once, with the real clock. SQLite has one process, one connection:
// there the two share it.
let location: TestDatabaseLocation;
let consoles: ConsoleDatabase[];
const signer = auditSigningKey('/nonexistent', randomBytes(32).toString('hex'));

beforeAll(async () => {
  location = await createTestDatabaseLocation('audit-chain-race');
  const first = openConsoleDatabase(location.location);
  consoles = [first, first.dialect === 'postgres' ? openConsoleDatabase(location.location) : first];
  await migrateAuditLog(consoles[0] as ConsoleDatabase);
  await migrateAuditChain(consoles[0] as ConsoleDatabase);
});
afterAll(async () => {
  await Promise.all([...new Set(consoles)].map((database) => database.close()));
  await location.dispose();
});

/** A turn of the event loop: better-sqlite3 answers at once, so a loop must yield for others to run. */
const turn = () => new Promise((resolve) => setImmediate(resolve));

/** The database, its transactions held until `arrivals` of them are ready: both seals are built first. */
function meetingBeforeWriting(database: ConsoleDatabase, met: { arrive(): Promise<void> }) {
  return new Proxy(database.db, {
    get(target, property) {
      if (property !== 'transaction') {
        // Kysely's private fields need the instance itself as `this`.
        const value = Reflect.get(target, property, target);
        return typeof value === 'function' ? value.bind(target) : value;
      }
      return () => {
        const transaction = target.transaction();
        return {
          execute: async (work: Parameters<typeof transaction.execute>[0]) => {
            await met.arrive();
            return transaction.execute(work);
          },
        };
      };
    },
  });
}

function meeting(arrivals: number) {
  let arrived = 0;
  let all: () => void = () => {};
  const met = new Promise<void>((resolve) => {
    all = resolve;
  });
  return {
    arrive() {
      arrived += 1;
      if (arrived === arrivals) all();
      return met;
    },
  };
}

describe('two consoles sealing at once', () => {
  it('build the same next seal: one writes it, the other writes nothing', async () => {
    const [first, second] = consoles as [ConsoleDatabase, ConsoleDatabase];
    const clock = testClock();
    await recordAuditEvent(
      first.db,
      {
        action: 'sign-in',
        operator: null,
        outcome: 'success',
        requestId: 'before-the-race',
        at: new Date(clock.now() - 60_000),
      },
      clock,
    );
    const met = meeting(2);
    const outcomes = await Promise.all(
      [first, second].map((database) => sealOnce({ db: meetingBeforeWriting(database, met), signer, clock })),
    );
    expect(outcomes.filter((outcome) => outcome === 'lost')).toHaveLength(1);
    expect(await first.db.selectFrom('audit_seal').select('id').execute()).toEqual([{ id: 1 }]);
    expect(await first.db.selectFrom('audit_chain_open').selectAll().execute()).toEqual([]);
  });

  it('write one chain, each entry sealed once, that verifies', async () => {
    // Time moves as the writers write (5 ms an entry): the sealers see entries come of age under way.
    const clock = testClock();
    let writing = true;
    const write = async (database: ConsoleDatabase, name: string) => {
      let written = 0;
      while (written < 300) {
        const id = await recordAuditEvent(
          database.db,
          {
            action: 'rotate',
            operator: { id: name, email: `${name}@example.com` },
            outcome: 'started',
            requestId: `${name}-${written}`,
            at: new Date(clock.now()),
          },
          clock,
        );
        if (written % 3 !== 0) await settleAuditEvent(database.db, id, { outcome: 'success' }, clock);
        written += 1;
        await clock.advance(5);
        await turn();
      }
      return written;
    };
    const seal = async (database: ConsoleDatabase) => {
      let seals = 0;
      while (writing) {
        seals += await sealAll({
          db: database.db,
          signer,
          clock,
          settleDelayMs: 200,
          batchSize: 25,
        });
        await turn();
      }
      return seals;
    };
    const [first, second] = consoles as [ConsoleDatabase, ConsoleDatabase];
    const writers = Promise.all([write(first, 'ann'), write(second, 'bob')]);
    const sealers = Promise.all([seal(first), seal(second)]);
    await writers;
    writing = false;
    const [firstSealed, secondSealed] = await sealers;
    expect(firstSealed + secondSealed).toBeGreaterThan(2);

    // Whatever is left (the last writes, the last settlements) once they are old enough.
    await clock.advance(250);
    await sealAll({ db: first.db, signer, clock, settleDelayMs: 200 });
    const seals = await first.db.selectFrom('audit_seal').selectAll().orderBy('id').execute();
    expect(seals.map((seal) => seal.id)).toEqual(seals.map((_, index) => index + 1));
    const written = await first.db
      .selectFrom('audit_event')
      .select((eb) => eb.fn.countAll().as('count'))
      .executeTakeFirstOrThrow();
    expect(seals.reduce((sum, seal) => sum + seal.entry_count, 0)).toBe(Number(written.count));
    expect(await verifyAuditChain(second.db, signer)).toMatchObject({
      ok: true,
      entries: Number(written.count),
      unsealed: 0,
      pendingSettlements: 0,
      firstProblem: null,
    });
  });
});
