'use client';

import { formErrorMessage } from '@/components/form-errors';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { describeChainReport } from '@/lib/audit-chain/contract';
import { auditChainRoutes } from '@/lib/audit-chain/routes';
import { useRouteMutation } from '@/lib/browser-client/use-route-mutation';

/**
 * An admin's check of the audit log's chain of signed seals, as `npm run audit -- verify` runs it:
 * the outcome in a status line (an alert when an entry was tampered with), read out when it comes.
 */
export function VerifyChain() {
  const verify = useRouteMutation(auditChainRoutes.verifyAuditChain);
  const report = verify.data;
  return (
    <section aria-labelledby="verify-chain-heading" className="flex flex-col gap-2">
      <h2 id="verify-chain-heading" className="sr-only">
        Tamper evidence
      </h2>
      <div>
        {/* aria-disabled, not disabled: a disabled button would drop the keyboard's focus. */}
        <Button
          variant="outline"
          aria-disabled={verify.isPending}
          onClick={() => {
            if (!verify.isPending) verify.mutate();
          }}
        >
          {verify.isPending ? 'Verifying the audit log…' : 'Verify the audit log'}
        </Button>
      </div>
      {verify.isError ? (
        <Alert variant="error" role="alert">
          {formErrorMessage(verify.error)}
        </Alert>
      ) : null}
      {/* Always in the page, so that the outcome is read out when it comes. */}
      <div role="status">
        {report?.ok ? (
          <Alert variant="neutral">
            {describeChainReport(report)}{' '}
            {/* The two counts differ (#43, item 7): say why where the second one is read. */}
            <span data-testid="verify-count-why">
              Verify counts every entry of the log, reads included; the count under the filters counts only
              the entries they show.
            </span>
          </Alert>
        ) : null}
      </div>
      {report && !report.ok ? (
        <Alert variant="error" role="alert">
          {describeChainReport(report)}
        </Alert>
      ) : null}
    </section>
  );
}
