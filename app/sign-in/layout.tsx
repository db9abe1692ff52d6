import type { ReactNode } from 'react';
import { Providers } from '@/components/providers';

/** The query client for this page's forms: not in the root layout, which every page loads. */
export default function Layout({ children }: { children: ReactNode }) {
  return <Providers>{children}</Providers>;
}
