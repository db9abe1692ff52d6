'use client';

import dynamic from 'next/dynamic';

/**
 * The header's Approvals link and count, fetched only where it shows (the policy on, an operator
 * who may approve): every other page of every console carries none of it.
 */
export const ApprovalsLinkOnDemand = dynamic(() =>
  import('./approvals-link').then((module) => module.ApprovalsLink),
);
