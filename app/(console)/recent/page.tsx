import type { Metadata } from 'next';
import { Card, CardContent } from '@/components/ui/card';
import { listRecentGroups } from '@/lib/audit/store';
import { can } from '@/lib/roles';
import { consoleServer } from '@/lib/server';
import { requirePageOperator } from '@/lib/server/page-guard';
import { ReopenGroup } from './_components/reopen-group';

export const metadata: Metadata = { title: 'Recent groups · User Group Console' };

/** The user groups operators opened lately, from the audit log; support reopens one to copy its token. */
export default async function RecentGroupsPage() {
  const operator = await requirePageOperator('audit:read');
  const { database } = await consoleServer();
  const groups = await listRecentGroups(database.db);
  const mayReopen = can(operator.role, 'user-groups:reveal-token');

  return (
    <div className="flex flex-col gap-6">
      <div className="flex flex-col gap-1.5">
        <h1 className="text-2xl font-semibold tracking-tight">Recent groups</h1>
        <p className="text-sm text-muted-foreground">
          User groups got or created through the console, the latest first (groups deleted through the console
          since are left out).{mayReopen ? ' Reopen one to copy its token again.' : ''}
        </p>
      </div>
      {groups.length === 0 ? (
        <p className="text-sm text-muted-foreground">
          No user group has been opened through the console yet.
        </p>
      ) : (
        <ul className="flex flex-col gap-3" aria-label="Recent groups">
          {groups.map((group) => (
            <li key={group.userGroupId} data-testid="recent-group">
              <Card>
                <CardContent className="flex flex-col gap-3">
                  <div className="flex flex-wrap items-baseline justify-between gap-2">
                    <div className="min-w-0">
                      <code className="font-mono text-sm wrap-anywhere">{group.userGroupId}</code>
                      {group.name ? (
                        <span className="ml-2 text-sm text-muted-foreground">{group.name}</span>
                      ) : null}
                    </div>
                    <span className="text-xs text-muted-foreground">
                      {group.lastOpenedAt.replace('T', ' ').slice(0, 16)} UTC
                      {group.lastOpenedBy ? ` by ${group.lastOpenedBy}` : ''}
                    </span>
                  </div>
                  {mayReopen ? <ReopenGroup userGroupId={group.userGroupId} name={group.name} /> : null}
                </CardContent>
              </Card>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
