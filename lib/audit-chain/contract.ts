/**
 * What a verification of the audit chain answers (`npm run audit -- verify`, and POST
 * /api/audit/verify for the audit page's button). Plain module: the browser imports it.
 */
import * as z from 'zod/mini';

const chainProblemSchema = z.object({
  /** `seal`: a seal is missing, altered, or not signed by the key (its entries are named by range). */
  kind: z.enum(['changed', 'removed', 'inserted', 'seal']),
  entryId: z.nullable(z.number()),
  sealId: z.nullable(z.number()),
  message: z.string(),
});
export type ChainProblem = z.infer<typeof chainProblemSchema>;

export const chainReportSchema = z.object({
  ok: z.boolean(),
  seals: z.number(),
  /** Entries checked, from `verifiedFrom` (the first kept after pruning) to `verifiedThrough`. */
  entries: z.number(),
  firstSeal: z.nullable(z.number()),
  verifiedFrom: z.nullable(z.number()),
  verifiedThrough: z.nullable(z.number()),
  /** Written after the last seal: sealed within seconds, verified then. */
  unsealed: z.number(),
  /** Entries sealed while `started` and settled since: their settlement is sealed next. */
  pendingSettlements: z.number(),
  problems: z.number(),
  /** The first in id order: the entry changed, removed or inserted, or the seal. */
  firstProblem: z.nullable(chainProblemSchema),
  keyId: z.string(),
  /** The seal kept outside the database that the seals were checked to reach (null: none given). */
  anchorSeal: z.nullable(z.number()),
  /** Checked from this seal on (verified before by this console); null: from the first kept seal. */
  sinceSeal: z.nullable(z.number()),
  /** Why the console refuses to seal (its seals no longer reach its checkpoint); null: sealing. */
  sealing: z.nullable(z.string()),
});
export type ChainReport = z.infer<typeof chainReportSchema>;

/** The report in a sentence or two, as the CLI prints it and the audit page shows it. */
export function describeChainReport(report: ChainReport): string {
  const sealing = report.sealing ? ` The console refuses to seal: ${report.sealing}.` : '';
  const unsealed = report.unsealed > 0 ? ` ${report.unsealed} newer entries are not sealed yet.` : '';
  if (report.firstProblem)
    return `The audit log was tampered with: ${report.firstProblem.message}${report.problems > 1 ? ` (${report.problems} problems in all)` : ''}.${sealing}`;
  if (report.sealing) return `The audit log was tampered with.${sealing}`;
  const anchored =
    report.anchorSeal !== null ? `, reaching seal ${report.anchorSeal} kept outside the database` : '';
  if (report.seals === 0 && report.sinceSeal !== null)
    return `The audit chain verifies: nothing sealed since seal ${report.sinceSeal}, which an earlier check verified${anchored}.${unsealed}`;
  if (report.seals === 0) return `Nothing is sealed yet.${unsealed}`;
  // The entries and seals since the last press; the ones up to seal N were verified by an earlier one.
  const since =
    report.sinceSeal !== null
      ? `, after seal ${report.sinceSeal}, up to which an earlier check verified`
      : '';
  return `The audit chain verifies: ${report.entries} entries (ids ${report.verifiedFrom} to ${report.verifiedThrough}) in ${report.seals} seals, signed by key ${report.keyId}${since}${anchored}.${unsealed}`;
}
