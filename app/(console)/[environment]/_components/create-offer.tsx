import Link from 'next/link';
import { Identifier } from '@/components/ui/identifier';
import type { Environment } from '@/lib/environments';
import { createPath, groupPath } from './paths';

type CreateOfferProps = {
  /** The id searched for, which no group (or only a deleted one) has. */
  userGroupId: string;
  environment: Environment;
  slug: string;
  deleted: boolean;
  /** The role may create groups; otherwise the offer only says the id is free. */
  mayCreate: boolean;
};

/**
 * The directory's offer to create the group a search names when no group has that exact id: one
 * compact box, its id on one line (cut with an ellipsis on a phone, whole in its title and name).
 */
export function CreateOffer({ userGroupId, environment, slug, deleted, mayCreate }: CreateOfferProps) {
  return (
    <div className="flex flex-wrap items-center gap-x-3 gap-y-2 rounded-lg border border-dashed border-border bg-card px-3 py-2 text-sm">
      <span className="min-w-0">
        {deleted ? 'The group ' : 'No group has the ID '}
        <Identifier value={userGroupId} /> in {environment}
        {deleted ? ' was deleted.' : '.'}
      </span>
      {/* Who deleted it, when, and its history are on its page: the search is no dead end. */}
      {deleted ? (
        <Link href={groupPath(slug, userGroupId)} className="underline underline-offset-4">
          Its page and history
        </Link>
      ) : null}
      {mayCreate ? (
        <Link
          href={createPath(slug, userGroupId)}
          title={`Create user group “${userGroupId}”`}
          className="inline-flex h-8 max-w-full min-w-0 items-center rounded-md bg-primary px-3 text-xs font-medium text-primary-foreground"
        >
          <span className="truncate">Create user group “{userGroupId}”</span>
        </Link>
      ) : null}
    </div>
  );
}
