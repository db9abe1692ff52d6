'use client';

import { useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { approvalRoutes } from '@/lib/approvals/routes';
import { callRoute } from '@/lib/browser-client/console-client';
import { plural } from '@/lib/plural';

/** The approvals list's query, shared by the header's count and the Approvals page. */
export const approvalsQueryKey = ['approvals'] as const;

/**
 * The header's way to the Approvals page, for those who may approve something the policy names:
 * how many requests wait for them, read again every half minute (the layout stays across pages).
 */
export function ApprovalsLink({ initialWaiting }: { initialWaiting: number }) {
  const { data } = useQuery({
    queryKey: approvalsQueryKey,
    queryFn: ({ signal }) => callRoute(approvalRoutes.listApprovals, { signal }),
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
