'use client';

import { LogOut } from 'lucide-react';
import { useSignOut } from '@/app/(console)/_hooks/use-sign-out';
import { navigateGuarded } from '@/components/navigation-guard';
import { Button } from '@/components/ui/button';

/** Signs out; stays disabled from the click until the sign-in page has loaded. */
export function SignOutButton() {
  const signOut = useSignOut();
  return (
    <Button
      variant="ghost"
      size="sm"
      onClick={() => navigateGuarded(() => signOut.mutate())}
      disabled={!signOut.isIdle}
    >
      <LogOut aria-hidden="true" />
      {/* On a phone, the icon (the header is compact there); its name for screen readers. */}
      <span className="sr-only sm:not-sr-only">Sign out</span>
    </Button>
  );
}
