'use client';

import { type ComponentProps, lazy, Suspense } from 'react';

/**
 * The second step of a sign-in that has not proved its second factor yet: the account page shows it
 * only then, so it is fetched only then, not with every visit to the page.
 */
const ConfirmSecondFactor = lazy(() =>
  import('./confirm-second-factor').then((module) => ({ default: module.ConfirmSecondFactor })),
);

export function ConfirmSecondFactorOnDemand(props: ComponentProps<typeof ConfirmSecondFactor>) {
  return (
    <Suspense fallback={null}>
      <ConfirmSecondFactor {...props} />
    </Suspense>
  );
}
