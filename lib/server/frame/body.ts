import 'server-only';
import { readBodyWithReason } from '@/lib/approvals/body';
import { parseJson } from '../request-body';
import type { Action } from './action';

/**
 * The body stage: the body read with the definition's schema (under its size cap, nested at most
 * 64 levels), and beside it the requester's reason where the action may wait for approval. Not
 * read where the definition has no body schema, nor for an approved action (its body is the one
 * that was approved).
 */
export async function bodyStage<Path extends string, Body, Result, Subject>(
  action: Action<Path, Body, Result, Subject>,
): Promise<void> {
  const { spec, request } = action;
  if (action.approved || !spec.body) return;
  if (spec.approval) {
    const read = await readBodyWithReason(request, spec.body, spec.maxBodyBytes);
    action.body = read.body;
    action.reason = read.reason;
  } else action.body = await parseJson(request, spec.body, spec.maxBodyBytes);
}
