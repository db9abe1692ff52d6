'use client';

import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { setNonce } from 'get-nonce';
import { type ReactNode, useEffect, useState } from 'react';

function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      // A write is never repeated on its own: rotating twice would revoke the token just issued.
      mutations: { retry: false },
      queries: { staleTime: 30_000, refetchOnWindowFocus: false },
    },
  });
}

/**
 * The page's CSP nonce, for the style elements dialogs add (Radix's scroll lock, through get-nonce):
 * the policy allows style elements only with it (proxy.ts), and without it every dialog logged a
 * violation. Read from Next's own scripts, which carry it (the browser hides the attribute's value,
 * not the property).
 */
function adoptPageNonce(): void {
  const nonce = document.querySelector<HTMLScriptElement>('script[nonce]')?.nonce;
  if (nonce) setNonce(nonce);
}

/** Client-side context for the whole app: one QueryClient per browser tab. */
export function Providers({ children }: { children: ReactNode }) {
  const [queryClient] = useState(createQueryClient);
  useEffect(adoptPageNonce, []);
  return <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>;
}
