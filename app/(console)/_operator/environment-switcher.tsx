'use client';

import Link from 'next/link';
import { usePathname } from 'next/navigation';
import { cn } from '@/components/ui/cn';
import { type Environment, environmentLooks, slugOf } from '@/lib/environments';

type EnvironmentSwitcherProps = { environments: { environment: Environment; configured: boolean }[] };

/** Always in the header: which environment the page is in, and the way to the other one. */
export function EnvironmentSwitcher({ environments }: EnvironmentSwitcherProps) {
  const pathname = usePathname();
  return (
    <nav
      aria-label="Environment"
      className="flex items-center gap-1 rounded-md border border-border p-0.5 text-sm"
    >
      {environments.map(({ environment, configured }) => {
        const href = `/${slugOf[environment]}`;
        const current = pathname === href || pathname.startsWith(`${href}/`);
        return (
          <Link
            key={environment}
            href={href}
            aria-current={current ? 'page' : undefined}
            title={configured ? environmentLooks[environment].description : 'Not configured: no API key'}
            className={cn(
              'rounded px-2 py-0.5 font-medium',
              current && environment === 'Customer' && 'bg-red-700 text-white',
              current && environment === 'Testing' && 'bg-blue-700 text-white',
              !current && 'text-muted-foreground hover:text-foreground',
            )}
          >
            {environmentLooks[environment].label}
            {configured ? null : <span className="sr-only"> (not configured)</span>}
            {configured ? null : <span aria-hidden="true"> ⚠</span>}
          </Link>
        );
      })}
    </nav>
  );
}
