'use client';

import Link from 'next/link';
import { usePathname } from 'next/navigation';
import { environmentFromSlug, slugOf } from '@/lib/environments';

/**
 * The header's "User groups": the directory of the environment the page is in. From a Testing page
 * it stays in Testing; a sandbox user is never moved into production by the header.
 */
export function GroupsLink({ className }: { className: string }) {
  const here = environmentFromSlug(usePathname().split('/')[1] ?? '') ?? 'Customer';
  return (
    <Link href={`/${slugOf[here]}`} className={className}>
      {/* "Groups" on a phone, where an admin's header must keep to two lines; its name stays whole. */}
      <span aria-hidden="true" className="sm:hidden">
        Groups
      </span>
      <span className="max-sm:sr-only">User groups</span>
    </Link>
  );
}
