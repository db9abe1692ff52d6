import Link from 'next/link';
import { cn } from '@/components/ui/cn';
import { readableId } from '@/components/ui/identifier';
import { groupPath } from '../../_components/paths';

type GroupIdCellProps = {
  /** The environment's slug, for the link to the group's page. */
  slug: string;
  /** The group's id; null when the console does not know the group (a token it never saw). */
  userGroupId: string | null;
  /** Whether the group's page is worth a link (a group the row deleted has none). */
  linked?: boolean;
};

/** A bulk job's group, as a row of its preview or its list shows it: whole id, readable at 375 px. */
export function GroupIdCell({ slug, userGroupId, linked = true }: GroupIdCellProps) {
  if (userGroupId === null)
    return <span className="text-muted-foreground italic">not known to the console</span>;
  if (!linked)
    return (
      <span title={userGroupId} className={cn(readableId, 'font-mono')}>
        {userGroupId}
      </span>
    );
  return (
    <Link
      href={groupPath(slug, userGroupId)}
      title={userGroupId}
      className={cn(readableId, 'font-mono underline underline-offset-4')}
    >
      {userGroupId}
    </Link>
  );
}
