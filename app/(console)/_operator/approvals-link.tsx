'use client';

import { useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { approvalWaitingRoutes } from '@/lib/approvals/waiting-route';
import { callRoute } from '@/lib/browser-client/console-client';
import { plural } from '@/lib/plural';

/**
 * The header's way to the Approvals page, for those who may approve something the policy names:
 * how many requests wait for them, read again every half minute (the layout stays across pages).
 */
export function ApprovalsLink({ initialWaiting }: { initialWaiting: number }) {
  const { data } = useQuery({
    queryKey: ['approvals', 'waiting'],
    queryFn: ({ signal }) => callRoute(approvalWaitingRoutes.countApprovals, { signal }),
    refetchInterval: 30_000,
  });
  const waiting = data?.waiting ?? initialWaiting;
  return (
    <Link
      href="/approvals"
      className="flex items-center gap-1 text-muted-foreground hover:text-foreground"
      aria-label={`Approvals, ${plural(waiting, 'request')} waiting for you`}
    >
      Approvals
      {waiting > 0 ? (
        <span
          data-testid="approvals-waiting"
          className="rounded-full bg-primary px-1.5 text-xs font-medium text-primary-foreground"
        >
          {waiting}
        </span>
      ) : null}
    </Link>
  );
}
