/**
 * The operators list as an audit asks for it, as CSV (admins export it from the operators page):
 * each operator's role and status, second factor, how they sign in, whether the company's directory
 * manages them, and when they last signed in. Written by the console's one CSV writer, which
 * neutralises formulas (names and emails are typed by people).
 */

import { spreadsheetCsv } from '@/lib/audit/csv';
import type { OperatorSummary } from './contract';

const operatorCsvHeader = [
  'email',
  'name',
  'role',
  'status',
  'second factor',
  'signs in with',
  'managed by directory',
  'last sign-in (UTC)',
  'added (UTC)',
] as const;

/** active, disabled, invited or invitation expired, as the list shows it at `now`. */
function statusOf(operator: OperatorSummary, now: string): string {
  if (operator.disabled) return 'disabled';
  if (operator.invitationExpiresAt === null) return 'active';
  return operator.invitationExpiresAt > now ? 'invited' : 'invitation expired';
}

export function operatorsToCsv(operators: readonly OperatorSummary[], now: string): string {
  return spreadsheetCsv(
    operatorCsvHeader,
    operators.map((operator) => [
      operator.email,
      operator.name,
      operator.role ?? 'no role',
      statusOf(operator, now),
      operator.secondFactor,
      operator.signsInWith,
      operator.managedByDirectory ? 'yes' : 'no',
      operator.lastSignInAt ?? 'never',
      operator.createdAt,
    ]),
  );
}
