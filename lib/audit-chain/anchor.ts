/**
 * The chain's anchor: a seal kept outside the database, which the database's seals must reach.
 * Someone who can write the database but not sign can delete the newest seals, or every seal, and
 * roll the log back to an older state that verifies on its own; against a seal kept elsewhere that
 * is a shorter chain, and it fails.
 *
 * Two sources, one shape (the seal's signed fields): the checkpoint file each console keeps in
 * DATA_DIR (the newest seal it made or verified the link to), and the last seal a SIEM received
 * (the stream's `audit.seal` object, as the SIEM stores it). Either is passed to
 * `npm run audit -- verify --anchor <file>`.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import * as z from 'zod/mini';
import type { AuditSealTable, ConsoleDb } from '@/lib/db/console-database';
import { readSecretFile, writeSecretFile } from '@/lib/secret-file';
import { manifestHash, parseManifest } from './links';
import type { SealVerifier } from './signing-key';

export const CHECKPOINT_FILE = 'audit-chain-checkpoint.json';

const anchorSchema = z.object({
  id: z.number(),
  after_id: z.number(),
  through_id: z.number(),
  entry_count: z.number(),
  settlements: z.optional(z.number()),
  manifest_hash: z.optional(z.string()),
  previous_hash: z.string(),
  head_hash: z.string(),
  sealed_at: z.string(),
  key_id: z.string(),
  signature: z.string(),
  /** A SIEM's copy carries the manifest instead of the settlements' count. */
  manifest: z.optional(z.unknown()),
});

/** A seal's signed fields, enough to check its signature and to find it in the database. */
export interface SealAnchor {
  id: number;
  after_id: number;
  through_id: number;
  entry_count: number;
  settlements: number;
  /** Signed by v2 seals (links.ts' manifestHash); absent from a checkpoint written before them. */
  manifest_hash?: string;
  previous_hash: string;
  head_hash: string;
  sealed_at: string;
  key_id: string;
  signature: string;
}

export function anchorOf(seal: AuditSealTable): SealAnchor {
  const { manifest, ...signed } = seal;
  return {
    ...signed,
    id: Number(signed.id),
    after_id: Number(signed.after_id),
    through_id: Number(signed.through_id),
    entry_count: Number(signed.entry_count),
    settlements: parseManifest(manifest).settlements.length,
    manifest_hash: manifestHash(manifest),
  };
}

/** A checkpoint file's text, or a SIEM's copy of a seal (its JSON object, or its last NDJSON line). */
export function parseAnchor(text: string): SealAnchor {
  const lines = text.trim().split('\n');
  const parsed = anchorSchema.parse(JSON.parse(lines.at(-1) ?? ''));
  const { manifest, settlements, manifest_hash, ...signed } = parsed;
  const hash = manifest_hash ?? (manifest === undefined ? undefined : manifestHash(JSON.stringify(manifest)));
  return {
    ...signed,
    ...(hash === undefined ? {} : { manifest_hash: hash }),
    settlements:
      settlements ??
      (manifest === undefined ? 0 : parseManifest(JSON.stringify(manifest)).settlements.length),
  };
}

export function readAnchorFile(file: string): SealAnchor {
  return parseAnchor(readFileSync(file, 'utf8'));
}

/**
 * Which payload a seal's signature verifies under: v2 (its manifest signed too), v1 (a seal made
 * before, its link forms unsigned), or null: not signed by this key as it reads. Only the key's
 * holder makes either, so a seal's version is as trustworthy as its signature.
 */
export function signedVersion(verifier: SealVerifier, seal: SealAnchor): 'v1' | 'v2' | null {
  const { manifest_hash, ...v1 } = seal;
  if (manifest_hash !== undefined && verifier.verify(seal, seal.signature)) return 'v2';
  return verifier.verify(v1, seal.signature) ? 'v1' : null;
}

export const signedBy = (verifier: SealVerifier, seal: SealAnchor): boolean =>
  signedVersion(verifier, seal) !== null;

/** What the sealer knows it has sealed: kept in memory and in a file the database's writers cannot write. */
export interface Checkpoint {
  current(): SealAnchor | null;
  /** Moves on to a newer seal (an older one is ignored: several consoles may share the file). */
  advance(seal: SealAnchor): void;
  /** Where it is kept, for the CLI's `--anchor` (null: memory only, in tests). */
  file: string | null;
}

const newer = (a: SealAnchor | null, b: SealAnchor | null) => (!a ? b : !b ? a : b.id > a.id ? b : a);

/** DATA_DIR/audit-chain-checkpoint.json, written whole (mode 0600) as the console's secrets are. */
export function fileCheckpoint(dataDir: string): Checkpoint {
  const file = path.join(dataDir, CHECKPOINT_FILE);
  let known: SealAnchor | null = null;
  const read = () => {
    const text = readSecretFile(file);
    return text ? parseAnchor(text) : null;
  };
  return {
    file,
    current() {
      known = newer(known, read());
      return known;
    },
    advance(seal) {
      const onFile = read();
      known = newer(newer(known, onFile), seal);
      if (known !== onFile) writeSecretFile(file, JSON.stringify(known));
    },
  };
}

export function memoryCheckpoint(start: SealAnchor | null = null): Checkpoint {
  let known = start;
  return {
    file: null,
    current: () => known,
    advance(seal) {
      known = newer(known, seal);
    },
  };
}

/** The seals with id greater than `after`, in order, a page at a time. */
async function* sealsAfter(db: ConsoleDb, after: number, pageSize = 20): AsyncGenerator<AuditSealTable> {
  let from = after;
  for (;;) {
    const page = await db
      .selectFrom('audit_seal')
      .selectAll()
      .where('id', '>', from)
      .orderBy('id')
      .limit(pageSize)
      .execute();
    yield* page;
    if (page.length < pageSize) return;
    from = Number(page.at(-1)?.id);
  }
}

/**
 * Whether the database's seals reach the anchor and carry on from it: the anchor's seal is there
 * as signed, and every seal after it is signed and linked to the one before (id + 1, its entries
 * continuing, its previous hash the other's head). Answers the newest seal, or why not.
 */
export async function chainFromAnchor(
  db: ConsoleDb,
  verifier: SealVerifier,
  anchor: SealAnchor,
): Promise<{ newest: AuditSealTable } | { broken: string }> {
  const at = await db.selectFrom('audit_seal').selectAll().where('id', '=', anchor.id).executeTakeFirst();
  if (!at) {
    const [oldest, last] = await Promise.all(
      (['asc', 'desc'] as const).map((order) =>
        db.selectFrom('audit_seal').selectAll().orderBy('id', order).limit(1).executeTakeFirst(),
      ),
    );
    // Pruned with its batch (AUDIT_RETENTION_DAYS) while this console was away: the seals kept
    // begin after it and go on past it, each signed and linked.
    if (oldest && last && Number(oldest.id) > anchor.id && signedBy(verifier, anchorOf(oldest)))
      return continueFrom(db, verifier, oldest);
    return {
      broken: last
        ? `seal ${anchor.id} (the anchor) is missing: ${last.id < anchor.id ? `the database's seals end at seal ${last.id}` : 'seals were removed'}`
        : `seal ${anchor.id} (the anchor) is missing: the database holds no seal`,
    };
  }
  if (at.head_hash !== anchor.head_hash || Number(at.through_id) !== anchor.through_id)
    return { broken: `seal ${anchor.id} in the database differs from the anchor` };
  return continueFrom(db, verifier, at);
}

/** Every seal after `from` is signed and continues the one before; answers the newest. */
async function continueFrom(
  db: ConsoleDb,
  verifier: SealVerifier,
  from: AuditSealTable,
): Promise<{ newest: AuditSealTable } | { broken: string }> {
  let previous = from;
  for await (const seal of sealsAfter(db, Number(from.id))) {
    const linked =
      Number(seal.id) === Number(previous.id) + 1 &&
      Number(seal.after_id) === Number(previous.through_id) &&
      seal.previous_hash === previous.head_hash;
    if (!linked) return { broken: `the seals after seal ${previous.id} were removed or changed` };
    if (!signedBy(verifier, anchorOf(seal))) return { broken: `seal ${seal.id} is not signed by this key` };
    previous = seal;
  }
  return { newest: previous };
}
