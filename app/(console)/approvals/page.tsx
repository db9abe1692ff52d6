import type { Metadata } from 'next';
import { pageContext } from '@/lib/server/page-context';
import { ApprovalsList } from './_components/approvals-list';

export const metadata: Metadata = { title: 'Approvals · User Group Console' };

/**
 * The requests waiting for a second operator (CONSOLE_REQUIRE_APPROVAL): those the reader may
 * approve or reject, and those they asked for (which they may withdraw), with how each ended.
 */
export default async function ApprovalsPage() {
  const { server } = await pageContext('console:use');
  const on = server.config.approvals.rules.length > 0;
  return (
    <div className="flex flex-col gap-6">
      <div className="flex flex-col gap-1.5">
        <h1 className="text-2xl font-semibold tracking-tight">Approvals</h1>
        <p className="text-sm text-muted-foreground">
          {on
            ? `Some actions wait for a second operator who may do them: approve only what you would do yourself. Requests expire after ${server.config.approvals.minutes} minutes.`
            : 'No action needs a second operator here: CONSOLE_REQUIRE_APPROVAL is not set.'}
        </p>
      </div>
      <ApprovalsList />
    </div>
  );
}
