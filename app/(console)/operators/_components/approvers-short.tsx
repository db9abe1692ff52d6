import { Alert } from '@/components/ui/alert';
import { approvalActionWords } from '@/lib/approvals/contract';
import { approversShort } from '@/lib/approvals/server';
import type { ConsoleServer } from '@/lib/server';

/**
 * With the approval policy on, the actions fewer than two operators may do: one asks, another
 * approves, so nobody can get them done until someone else is given the role.
 */
export async function ApproversShort({ server }: { server: ConsoleServer }) {
  const short = await approversShort(server.database.db, server.config.approvals.rules);
  if (short.length === 0) return null;
  return (
    <Alert variant="notice" role="status" data-testid="approvers-short">
      Fewer than two operators are able to approve{' '}
      {short.map((action) => approvalActionWords[action].toLowerCase()).join(', ')}: CONSOLE_REQUIRE_APPROVAL
      asks a second operator, so nobody can get it done until another operator has the role for it.
    </Alert>
  );
}
