'use client';

import Link from 'next/link';
import { usePathname } from 'next/navigation';

/**
 * The header's "User groups": the directory of the environment the page is in. From a Testing page
 * it stays in Testing; a sandbox user is never moved into production by the header.
 */
export function GroupsLink({ className }: { className: string }) {
  const inTesting = /^\/testing(\/|$)/.test(usePathname());
  return (
    <Link href={inTesting ? '/testing' : '/customer'} className={className}>
      User groups
    </Link>
  );
}
