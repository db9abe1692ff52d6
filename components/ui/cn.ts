import { type ClassValue, clsx } from 'clsx';
import { type Config, createTailwindMerge } from 'tailwind-merge';
import cnConfig from './cn-groups.json';

/**
 * tailwind-merge with a class map of the console's own classes instead of its default one (which
 * weighed 6.5 of its 8.3 kB gzip on every page): the same answers for every class the source
 * writes, which components/ui/cn.test.ts holds against the default configuration. The map
 * (cn-groups.json: the default configuration's groups, narrowed to the source's classes) is written
 * by that test: `npx vitest run components/ui/cn.test.ts -u` after a new class; never by hand.
 */
const merge = createTailwindMerge(() => cnConfig as unknown as Config<string, string>);

/** Joins class names; later Tailwind utilities win over earlier ones. */
export function cn(...inputs: ClassValue[]): string {
  return merge(clsx(inputs));
}
