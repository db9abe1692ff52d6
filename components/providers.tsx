'use client';

import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';

function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      // A write is never repeated on its own: rotating twice would revoke the token just issued.
      mutations: { retry: false },
      queries: { staleTime: 30_000, refetchOnWindowFocus: false },
    },
  });
}

/** Client-side context for the whole app: one QueryClient per browser tab. */
export function Providers({ children }: { children: ReactNode }) {
  const [queryClient] = useState(createQueryClient);
  return <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>;
}
