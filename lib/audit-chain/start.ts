/**
 * The audit chain as one console runs it: its sealer, against the checkpoint it keeps in DATA_DIR,
 * each seal's outbox row in the seal's transaction, and the admin's Verify in a child process. The
 * composition root (lib/server/index.ts) hands it what it uses.
 */

import { enqueueSeal } from '@/lib/audit-stream/outbox';
import type { Clock } from '@/lib/clock';
import type { ConsoleDb } from '@/lib/db/console-database';
import type { ConsoleMetrics } from '@/lib/metrics/console-metrics';
import { fileCheckpoint } from './anchor';
import type { ChainReport } from './contract';
import { startAuditSealer } from './sealing-loop';
import type { SealSigner } from './signing-key';
import { createVerifyRunner, verifyInChild } from './verify-runner';

export function startAuditChain({
  db,
  signer,
  clock,
  dataDir,
  metrics,
  log,
  prunes,
}: {
  db: ConsoleDb;
  signer: SealSigner;
  clock: Clock;
  dataDir: string;
  metrics: Pick<
    ConsoleMetrics,
    'auditChainSealingRefused' | 'auditChainTampered' | 'auditChainUnsealedSeconds'
  >;
  log: (level: 'warn' | 'error', fields: Record<string, unknown>, message: string) => void;
  /** AUDIT_RETENTION_DAYS is set: seals gone from the start of the chain may be its doing. */
  prunes: boolean;
}): { verify(): Promise<ChainReport>; stop(): void } {
  // What this console has sealed, kept outside the database: it never seals over it.
  const checkpoint = fileCheckpoint(dataDir);
  const sealer = startAuditSealer({
    db,
    signer,
    clock,
    checkpoint,
    prunes,
    log: (level, message, fields) => log(level, fields, message),
    onState: (state) => {
      metrics.auditChainSealingRefused.set(state.refused ? 1 : 0);
      if (state.refused) metrics.auditChainTampered.inc({ kind: 'chain' });
      metrics.auditChainUnsealedSeconds.set(Math.floor(state.unsealedForMs / 1000));
    },
    onTampered: (message) => {
      log('error', {}, message);
      metrics.auditChainTampered.inc({ kind: 'settlement' });
    },
    // With a stream set, each seal follows the entries it covers to the SIEM, in its transaction.
    withSeal: enqueueSeal,
  });
  const verifier = createVerifyRunner({
    run: (from) => verifyInChild({ anchorFile: checkpoint.file, from }),
    // Refusing, or held back past the bound: either way every Verify says so.
    sealing: () => sealer.state.refused ?? sealer.state.stalled,
  });
  return { verify: () => verifier.verify(), stop: () => sealer.stop() };
}
