import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { migrateAuditLog } from '@/lib/audit/schema';
import { type AuditEntry, recordAuditEvents } from '@/lib/audit/store';
import { testClock } from '@/lib/clock';
import { openTestConsoleDatabase } from '@/lib/testing/console-test-database';
import { anchorOf, CHECKPOINT_FILE, fileCheckpoint, parseAnchor } from './anchor';
import { migrateAuditChain } from './schema';
import { type SealingState, startAuditSealer } from './sealing-loop';
import { auditSigningKey } from './signing-key';

const clock = testClock();
const signer = auditSigningKey('/nonexistent', randomBytes(32).toString('hex'));
const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

const entry = (index: number): AuditEntry => ({
  action: 'rotate',
  operator: { id: 'op-ann', email: 'ann@example.com' },
  outcome: 'success',
  requestId: `request-${index}`,
  at: new Date(clock.now() - 60_000),
});

const seal = (id: number) => ({
  id,
  after_id: id - 1,
  through_id: id,
  entry_count: 1,
  previous_hash: 'p',
  head_hash: `h${id}`,
  manifest: JSON.stringify({ entries: [[id, `h${id}`]], settlements: [] }),
  sealed_at: '2030-01-01T00:00:00.000Z',
  key_id: 'k',
  signature: 's',
});

describe("the sealer's checkpoint", () => {
  it('is kept in DATA_DIR, readable by the console alone, and only moves forward', () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'audit-checkpoint-'));
    cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
    const checkpoint = fileCheckpoint(dataDir);
    expect(checkpoint.current()).toBeNull();
    checkpoint.advance(anchorOf(seal(5)));
    checkpoint.advance(anchorOf(seal(3)));
    const file = path.join(dataDir, CHECKPOINT_FILE);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(parseAnchor(readFileSync(file, 'utf8'))).toMatchObject({ id: 5, head_hash: 'h5', settlements: 0 });
    // Another console sharing DATA_DIR moved it on: this one sees it.
    fileCheckpoint(dataDir).advance(anchorOf(seal(7)));
    expect(checkpoint.current()?.id).toBe(7);
  });

  it('makes a running sealer refuse loudly when its seals vanish, and seal again once they are back', async () => {
    const database = await openTestConsoleDatabase('audit-checkpoint');
    cleanups.push(() => database.dispose());
    await migrateAuditLog(database);
    await migrateAuditChain(database);
    await recordAuditEvents(database.db, [entry(1), entry(2)], clock);
    const dataDir = mkdtempSync(path.join(tmpdir(), 'audit-checkpoint-'));
    cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
    const logged: string[] = [];
    const states: Array<string | null> = [];
    const sealer = startAuditSealer({
      db: database.db,
      signer,
      clock,
      checkpoint: fileCheckpoint(dataDir),
      everyMs: 1_000,
      log: (level, message, fields) => logged.push(`${level} ${message} ${JSON.stringify(fields)}`),
      onState: (state: SealingState) => states.push(state.refused),
    });
    cleanups.push(() => sealer.stop());
    const pass = async () => {
      await clock.sleeping();
      await clock.advance(1_000);
      await clock.sleeping();
    };
    await pass();
    expect(states).toEqual([null]);
    const sealed = await database.db.selectFrom('audit_seal').selectAll().execute();
    expect(sealed).toHaveLength(1);

    await sql`delete from audit_seal`.execute(database.db);
    await pass();
    expect(sealer.state.refused).toMatch(/seal 1 \(the anchor\) is missing/);
    expect(logged.at(-1)).toMatch(/^error refusing to seal the audit log/);
    expect(await database.db.selectFrom('audit_seal').select('id').execute()).toEqual([]);

    await database.db.insertInto('audit_seal').values(sealed).execute();
    await recordAuditEvents(database.db, [entry(3)], clock);
    await pass();
    expect(sealer.state.refused).toBeNull();
    expect(await database.db.selectFrom('audit_seal').select('id').execute()).toHaveLength(2);
  });
});
