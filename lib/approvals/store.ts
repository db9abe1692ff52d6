/**
 * The approval requests on the console database: recorded pending, then settled exactly once. Every
 * change of state is one conditional update whose row count says whether it happened, so that two
 * consoles on one database (or two approvers at once) cannot both decide one request. A request's
 * secret part (the token a delete presents) is sealed with the bulk jobs' vault, its row id as
 * associated data, and erased in the same update that ends the request.
 */
import { randomUUID } from 'node:crypto';
import { SqliteAdapter, sql } from 'kysely';
import type { ConsoleDb } from '@/lib/db/console-database';
import type { Environment } from '@/lib/environments';
import { can, type Permission, permissionMinimumRole, type Role } from '@/lib/roles';
import type { ApprovalAction, ApprovalState, ApprovalView } from './contract';

/** What seals a request's secret part: lib/jobs/vault.ts's TokenVault. */
export interface SecretSeal {
  seal(text: string, place: string): string;
  open(sealed: string, place: string): string;
}

export interface ApprovalRequestInput {
  action: ApprovalAction;
  environment: Environment | null;
  routeName: string;
  method: 'POST' | 'PATCH';
  path: string;
  permission: Permission;
  subject: string;
  /** The body without its secret fields. */
  body: Record<string, unknown>;
  /** The secret fields, sealed before they are stored; null when the body has none. */
  secret: Record<string, unknown> | null;
  reason: string;
  requestedBy: { id: string; email: string };
  expiresAt: Date;
}

/** Who reads or decides a request. */
export interface ApprovalReader {
  id: string;
  role: Role | null;
}

const place = (id: string) => `approval:${id}`;

export async function recordApprovalRequest(
  db: ConsoleDb,
  seal: SecretSeal,
  input: ApprovalRequestInput,
  now: Date,
): Promise<string> {
  const id = randomUUID();
  await db
    .insertInto('approval_request')
    .values({
      id,
      action: input.action,
      environment: input.environment,
      route_name: input.routeName,
      method: input.method,
      path: input.path,
      permission: input.permission,
      subject: input.subject,
      body: JSON.stringify(input.body),
      sealed_secret: input.secret ? seal.seal(JSON.stringify(input.secret), place(id)) : null,
      reason: input.reason,
      requested_by: input.requestedBy.id,
      requested_by_email: input.requestedBy.email,
      requested_at: now.toISOString(),
      expires_at: input.expiresAt.toISOString(),
      state: 'pending',
    })
    .execute();
  return id;
}

export type ApprovalRow = NonNullable<Awaited<ReturnType<typeof findApprovalRequest>>>;

export function findApprovalRequest(db: ConsoleDb, id: string) {
  return db.selectFrom('approval_request').selectAll().where('id', '=', id).executeTakeFirst();
}

/** The body as it was requested, its secret part opened again: what an approval carries out. */
export function requestedBody(row: ApprovalRow, seal: SecretSeal): Record<string, unknown> {
  const body = JSON.parse(row.body) as Record<string, unknown>;
  if (row.sealed_secret === null) return body;
  return { ...body, ...(JSON.parse(seal.open(row.sealed_secret, place(row.id))) as Record<string, unknown>) };
}

const changed = (result: { numUpdatedRows: bigint } | undefined) => Number(result?.numUpdatedRows ?? 0) === 1;

/**
 * After a sealed secret is erased: on SQLite its old bytes would stay in the write-ahead log (and,
 * without secure_delete, which lib/db turns on, in the main file's freed space) until the next
 * checkpoint. TRUNCATE copies the pages back and empties the -wal file now. PostgreSQL: nothing to do
 * here (its dead row versions go at the next vacuum).
 */
async function eraseFromDisk(db: ConsoleDb): Promise<void> {
  if (!(db.getExecutor().adapter instanceof SqliteAdapter)) return;
  await sql`PRAGMA wal_checkpoint(TRUNCATE)`.execute(db);
}

/**
 * Claims a pending, unexpired request for an approver who did not ask for it: one conditional
 * update, so that of approvers pressing Approve at once (on any console) exactly one gets it. The
 * secret part is erased in the same update: the caller opened it from the row it read.
 */
export async function claimApproval(
  db: ConsoleDb,
  id: string,
  approver: { id: string; email: string },
  reason: string | null,
  now: Date,
): Promise<boolean> {
  const result = await db
    .updateTable('approval_request')
    .set({
      state: 'approved',
      sealed_secret: null,
      decided_by: approver.id,
      decided_by_email: approver.email,
      decided_at: now.toISOString(),
      decision_reason: reason,
    })
    .where('id', '=', id)
    .where('state', '=', 'pending')
    .where('expires_at', '>', now.toISOString())
    .where('requested_by', '<>', approver.id)
    .executeTakeFirst();
  if (!changed(result)) return false;
  await eraseFromDisk(db);
  return true;
}

/** The outcome of an approved request's action: `success`, or the code it was refused with. */
export async function settleApproval(db: ConsoleDb, id: string, outcome: string): Promise<void> {
  await db.updateTable('approval_request').set({ outcome }).where('id', '=', id).execute();
}

/** Rejects (another operator, before expiry) or withdraws (its requester) a pending request. */
export async function endApproval(
  db: ConsoleDb,
  id: string,
  end: { state: 'rejected' | 'withdrawn'; by: { id: string; email: string }; reason: string | null },
  now: Date,
): Promise<boolean> {
  let update = db
    .updateTable('approval_request')
    .set({
      state: end.state,
      sealed_secret: null,
      decided_by: end.by.id,
      decided_by_email: end.by.email,
      decided_at: now.toISOString(),
      decision_reason: end.reason,
    })
    .where('id', '=', id)
    .where('state', '=', 'pending');
  update =
    end.state === 'withdrawn'
      ? update.where('requested_by', '=', end.by.id)
      : update.where('requested_by', '<>', end.by.id).where('expires_at', '>', now.toISOString());
  if (!changed(await update.executeTakeFirst())) return false;
  await eraseFromDisk(db);
  return true;
}

/** Ends the requests whose time is up, their secret part erased; answers them. */
export async function expireApprovals(db: ConsoleDb, now: Date) {
  const ended = await db
    .updateTable('approval_request')
    .set({ state: 'expired', sealed_secret: null, decided_at: now.toISOString() })
    .where('state', '=', 'pending')
    .where('expires_at', '<=', now.toISOString())
    .returning(['id', 'action', 'environment', 'subject', 'requested_by', 'requested_by_email'])
    .execute();
  if (ended.length > 0) await eraseFromDisk(db);
  return ended;
}

const LISTED = 100;
/** Pending requests listed at most: a flood of them cannot hide one from its approvers' count. */
const PENDING_LISTED = 1000;

/**
 * The requests a reader may decide or asked for, pending ones first (all of them, up to a bound far
 * above any real day), then the newest decided ones, and how many wait for the reader's decision:
 * what the reader may see is chosen in SQL, so that others' requests never push theirs out. Reading
 * writes nothing: a pending request past its expiry reads `expired` until the sweep ends it.
 */
export async function listApprovals(db: ConsoleDb, reader: ApprovalReader, now: Date) {
  const allowed = (Object.keys(permissionMinimumRole) as Permission[]).filter((permission) =>
    can(reader.role, permission),
  );
  const visible = db
    .selectFrom('approval_request')
    .selectAll()
    .where((eb) =>
      allowed.length > 0
        ? eb.or([eb('requested_by', '=', reader.id), eb('permission', 'in', allowed)])
        : eb('requested_by', '=', reader.id),
    );
  const [pending, decided] = await Promise.all([
    visible
      .where('state', '=', 'pending')
      .where('expires_at', '>', now.toISOString())
      .orderBy('requested_at', 'desc')
      .limit(PENDING_LISTED)
      .execute(),
    visible
      .where((eb) => eb.or([eb('state', '<>', 'pending'), eb('expires_at', '<=', now.toISOString())]))
      .orderBy('requested_at', 'desc')
      .limit(LISTED)
      .execute(),
  ]);
  const approvals = [...pending, ...decided].map((row) => toApprovalView(row, reader, now));
  return { approvals, waiting: approvals.filter((view) => view.canDecide).length };
}

/** A pending request for the same action on the same thing (route, path and body): asking twice adds nothing. */
export function findPendingLike(
  db: ConsoleDb,
  like: { routeName: string; path: string; body: Record<string, unknown> },
  now: Date,
) {
  return db
    .selectFrom('approval_request')
    .select(['id', 'requested_by_email'])
    .where('state', '=', 'pending')
    .where('expires_at', '>', now.toISOString())
    .where('route_name', '=', like.routeName)
    .where('path', '=', like.path)
    .where('body', '=', JSON.stringify(like.body))
    .executeTakeFirst();
}

/** Its requester, and whoever may decide it, read a request; nobody else. */
export function visibleTo(row: ApprovalRow, reader: ApprovalReader): boolean {
  return row.requested_by === reader.id || mayDecide(row, reader);
}

/** Allowed to do the action itself, and not the one who asked. */
function mayDecide(row: ApprovalRow, reader: ApprovalReader): boolean {
  return row.requested_by !== reader.id && can(reader.role, row.permission as Permission);
}

export function stateOf(row: Pick<ApprovalRow, 'state' | 'expires_at'>, now: Date): ApprovalState {
  if (row.state === 'pending' && row.expires_at <= now.toISOString()) return 'expired';
  return row.state as ApprovalState;
}

export function toApprovalView(row: ApprovalRow, reader: ApprovalReader, now: Date): ApprovalView {
  const state = stateOf(row, now);
  return {
    id: row.id,
    action: row.action as ApprovalAction,
    environment: row.environment,
    subject: row.subject,
    reason: row.reason,
    requestedBy: row.requested_by_email,
    requestedAt: row.requested_at,
    expiresAt: row.expires_at,
    state,
    decidedBy: row.decided_by_email,
    decidedAt: row.state === 'pending' ? null : row.decided_at,
    decisionReason: row.decision_reason,
    outcome: row.outcome,
    method: row.method === 'PATCH' ? 'PATCH' : 'POST',
    path: row.path,
    canDecide: state === 'pending' && mayDecide(row, reader),
    mine: row.requested_by === reader.id,
  };
}
