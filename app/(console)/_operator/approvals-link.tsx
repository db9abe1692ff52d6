import Link from 'next/link';
import { plural } from '@/lib/plural';

/**
 * The header's way to the Approvals page, for those who may approve something the policy names,
 * with how many requests wait for them as the server rendered the page (the Approvals page itself
 * follows them live, and refreshes the header after a decision). No script: it adds nothing to the
 * weight of any page.
 */
export function ApprovalsLink({ waiting }: { waiting: number }) {
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
