/**
 * The chain's arithmetic, shared by the sealer and the verifier. SHA-256 throughout, written as
 * base64url (43 characters).
 *
 * - An entry's content hash covers every column of its row, in a fixed order, as a JSON array (one
 *   serialisation for both databases: text, integers and nulls only).
 * - Its fixed hash covers the columns a settlement never changes (id, time, operator, action,
 *   environment, request id, and the group id when one was given at start): what a `started` entry
 *   keeps for good. A settlement adds its outcome and may fill what it learns (group id and name
 *   when none was given, token fingerprints, detail).
 * - A link's chain hash covers the previous chain hash, the link's kind, the entry's id and the
 *   content hash; a `started` link covers its content, fixed hash and whether the group was given,
 *   so that the fixed hash is signed with the seal's head. A batch is its entries in id order, then
 *   its settlements in id order.
 */
import { createHash } from 'node:crypto';
import type { AuditEvent } from '@/lib/audit/store';

export type ChainHash = string;

/** The chain's hash before its first entry ever. */
export const GENESIS: ChainHash = createHash('sha256')
  .update('user-group-console audit chain')
  .digest('base64url');

const sha256 = (text: string): string => createHash('sha256').update(text).digest('base64url');

export function contentHash(event: AuditEvent): string {
  return sha256(
    JSON.stringify([
      Number(event.id),
      event.at,
      event.operator_id,
      event.operator_email,
      event.action,
      event.environment,
      event.user_group_id,
      event.user_group_name,
      event.outcome,
      event.request_id,
      event.token_fingerprint,
      event.previous_token_fingerprint,
      event.detail,
    ]),
  );
}

/** The fixed hash of seals made before the group id was part of it (their links are `entry`). */
export function legacyFixedHash(event: AuditEvent): string {
  return sha256(
    JSON.stringify([
      Number(event.id),
      event.at,
      event.operator_id,
      event.operator_email,
      event.action,
      event.environment,
      event.request_id,
    ]),
  );
}

/** What a settlement never changes: `groupGiven` says whether the group id was set at start. */
export function fixedHash(event: AuditEvent, groupGiven: boolean): string {
  return sha256(
    JSON.stringify([
      'fixed v2',
      Number(event.id),
      event.at,
      event.operator_id,
      event.operator_email,
      event.action,
      event.environment,
      event.request_id,
      groupGiven ? event.user_group_id : null,
    ]),
  );
}

/** What a v2 seal's signature covers of its manifest: the stored text, byte for byte. */
export const manifestHash = (text: string): string => sha256(`audit seal manifest\n${text}`);

export type LinkKind = 'entry' | 'started' | 'settlement';

/** What a `started` link chains: its content, its fixed hash and whether the group was given. */
export const startedValue = (content: string, fixed: string, groupGiven: 0 | 1): string =>
  sha256(JSON.stringify([content, fixed, groupGiven]));

export function chainHash(previous: ChainHash, kind: LinkKind, eventId: number, content: string): ChainHash {
  return sha256(JSON.stringify([previous, kind, eventId, content]));
}

/**
 * One batch's links as its seal keeps them. An entry link is `[id, chain]`; an entry sealed while
 * `started` keeps its content and fixed hashes too, `[id, chain, content, fixed, groupGiven]` (a
 * `started` link), because its row will change when it settles. Seals made before the fixed hash
 * was chained hold `[id, chain, content, fixed]` (an `entry` link): v1 seals alone, whose
 * signature left the manifest out. A settlement is `[id, chain, content, stillStarted]`. A v2
 * seal's manifest, signed whole, also lists the entries still open and the first kept seal.
 */
export type StartedLink = [number, ChainHash, string, string, 0 | 1];
export type EntryLink = [number, ChainHash] | [number, ChainHash, string, string] | StartedLink;
export interface Manifest {
  entries: EntryLink[];
  settlements: Array<[number, ChainHash, string, boolean]>;
  /**
   * v2: the entries still open after this batch (sealed while `started`, not settled for good) with
   * their last sealed content, in id order: signed with the seal, what the next pass works from.
   */
  open?: Array<[number, string]>;
  /** v2: the first seal kept when this one was made: seals before it went by retention, on record. */
  firstSeal?: number;
}

export const isStartedLink = (link: EntryLink): link is StartedLink => link.length === 5;

/**
 * Whether each link has a form the sealer writes: in a v2 seal only `[id, chain]` and `started`
 * links (the 4-element `entry` link is v1's alone), and settlements of four; ids integers, hashes
 * strings; a v2 seal's list of open entries. A seal whose manifest fails this is not one the
 * console made.
 */
export function wellFormed(manifest: Manifest, version: 'v1' | 'v2'): boolean {
  const hash = (value: unknown) => typeof value === 'string';
  const id = (value: unknown) => Number.isSafeInteger(value);
  const entryOk = (link: unknown[]) =>
    id(link[0]) &&
    hash(link[1]) &&
    (link.length === 2 ||
      (link.length === 5 && hash(link[2]) && hash(link[3]) && (link[4] === 0 || link[4] === 1)) ||
      (version === 'v1' && link.length === 4 && hash(link[2]) && hash(link[3])));
  return (
    Array.isArray(manifest.entries) &&
    Array.isArray(manifest.settlements) &&
    manifest.entries.every((link) => Array.isArray(link) && entryOk(link)) &&
    manifest.settlements.every(
      (link) =>
        Array.isArray(link) &&
        link.length === 4 &&
        id(link[0]) &&
        hash(link[1]) &&
        hash(link[2]) &&
        typeof link[3] === 'boolean',
    ) &&
    (version === 'v1'
      ? manifest.open === undefined && manifest.firstSeal === undefined
      : id(manifest.firstSeal) &&
        Array.isArray(manifest.open) &&
        manifest.open.every(
          (item) => Array.isArray(item) && item.length === 2 && id(item[0]) && hash(item[1]),
        ))
  );
}

/**
 * Whether the manifest's own links lead to the seal's head: each `started` link and settlement
 * recomputed from the one before. With the seal's signature, this makes a `started` link's fixed
 * hash as trustworthy as the seal (an entry link's content is checked against its row instead).
 */
export function manifestLeadsTo(previous: ChainHash, manifest: Manifest, head: ChainHash): boolean {
  let chain = previous;
  for (const link of manifest.entries) {
    if (
      isStartedLink(link) &&
      chainHash(chain, 'started', link[0], startedValue(link[2], link[3], link[4])) !== link[1]
    )
      return false;
    chain = link[1];
  }
  for (const [id, sealed, content] of manifest.settlements) {
    if (chainHash(chain, 'settlement', id, content) !== sealed) return false;
    chain = sealed;
  }
  return chain === head;
}

export function parseManifest(text: string): Manifest {
  const parsed = JSON.parse(text) as Partial<Manifest>;
  return {
    entries: parsed.entries ?? [],
    settlements: parsed.settlements ?? [],
    ...(parsed.open === undefined ? {} : { open: parsed.open }),
    ...(parsed.firstSeal === undefined ? {} : { firstSeal: parsed.firstSeal }),
  };
}

/** Waits for the event loop between batches: other requests get their turn. */
export const yieldToOthers = () => new Promise((resolve) => setImmediate(resolve));
