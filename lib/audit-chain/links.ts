/**
 * The chain's arithmetic, shared by the sealer and the verifier. SHA-256 throughout, written as
 * base64url (43 characters).
 *
 * - An entry's content hash covers every column of its row, in a fixed order, as a JSON array (one
 *   serialisation for both databases: text, integers and nulls only).
 * - Its fixed hash covers the columns a settlement never changes (id, time, operator, action,
 *   environment, request id): what a `started` entry must keep until its settlement is sealed.
 * - A link's chain hash covers the previous chain hash, the link's kind, the entry's id and the
 *   content hash. A batch is its entries in id order, then its settlements in id order.
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

export function fixedHash(event: AuditEvent): string {
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

export type LinkKind = 'entry' | 'settlement';

export function chainHash(previous: ChainHash, kind: LinkKind, eventId: number, content: string): ChainHash {
  return sha256(JSON.stringify([previous, kind, eventId, content]));
}

/**
 * One batch's links as its seal keeps them. An entry link is `[id, chain]`; an entry sealed while
 * `started` keeps its content and fixed hashes too, `[id, chain, content, fixed]`, because its row
 * will change when it settles. A settlement is `[id, chain, content, stillStarted]`.
 */
export interface Manifest {
  entries: Array<[number, ChainHash] | [number, ChainHash, string, string]>;
  settlements: Array<[number, ChainHash, string, boolean]>;
}

export function parseManifest(text: string): Manifest {
  const parsed = JSON.parse(text) as Partial<Manifest>;
  return { entries: parsed.entries ?? [], settlements: parsed.settlements ?? [] };
}

/** Waits for the event loop between batches: other requests get their turn. */
export const yieldToOthers = () => new Promise((resolve) => setImmediate(resolve));
