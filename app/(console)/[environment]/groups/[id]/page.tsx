import type { Metadata } from 'next';
import Link from 'next/link';
import { notFound } from 'next/navigation';
import { DetailsList, OrNone } from '@/app/(console)/_components/details-list';
import { AuditTable } from '@/app/(console)/audit/_components/audit-table';
import { CopyableId } from '@/components/copyable-id';
import { Alert } from '@/components/ui/alert';
import { cn } from '@/components/ui/cn';
import { readableId } from '@/components/ui/identifier';
import { policyCovers } from '@/lib/approvals/contract';
import { recordAuditRead } from '@/lib/audit/server';
import { listAuditEvents } from '@/lib/audit/store';
import { findDirectoryEntry } from '@/lib/directory/store';
import { slugOf } from '@/lib/environments';
import { can } from '@/lib/roles';
import { pageContext } from '@/lib/server/page-context';
import { pageRead } from '@/lib/server/page-read';
import { decodeParam } from '@/lib/server/route-params';
import { formatUtc } from '@/lib/time';
import { environmentTitle, pageEnvironment } from '../../_components/environment';
import { createPath } from '../../_components/paths';
import { activeAdminEmails, askAnAdmin } from './_components/admin-emails';
import { TokenPanel } from './_components/token-panel';

type GroupPageProps = { params: Promise<{ environment: string; id: string }> };

export async function generateMetadata({ params }: GroupPageProps): Promise<Metadata> {
  const { id } = await params;
  return { title: environmentTitle(await pageEnvironment(params), decodeParam(id) ?? notFound()) };
}

const HISTORY_TOO_LONG = 'This group’s history took too long to read and was stopped. Try again in a moment.';

const when = (at: string | null, by: string | null) =>
  at ? `${formatUtc(at)}${by ? ` by ${by}` : ''}` : null;

const json = (value: Record<string, unknown> | null) =>
  value === null ? (
    <OrNone value={null} />
  ) : (
    <pre className="rounded-md bg-muted px-3 py-2 font-mono text-[13px] leading-5 whitespace-pre-wrap wrap-anywhere">
      {JSON.stringify(value, null, 2)}
    </pre>
  );

/** One user group in one environment: what the console knows of it, its history, and its token. */
export default async function GroupPage({ params }: GroupPageProps) {
  const environment = await pageEnvironment(params);
  const userGroupId = decodeParam((await params).id) ?? notFound();
  const { server, operator, fromAnotherSite } = await pageContext('console:use');
  const slug = slugOf[environment];
  const { database } = server;
  // A group's own history lists its reads too (Show token's looks): who saw its token, and when.
  const historyFilters = { group: userGroupId, exactGroup: true, environment, reads: true };
  const mayShowToken = can(operator.role, 'user-groups:reveal-token');
  const mayCreate = can(operator.role, 'user-groups:get-or-create');
  const mayDelete = can(operator.role, 'user-groups:delete');
  // The group and its admins come at once, by key, on the main connection that has just read the
  // session: no time limit stops them, and a database not answering has failed the session first.
  // Only the history is a read of the audit log that can meet the read limit (or the read pool find
  // the database gone), and then the page says so in its place.
  const [entry, admins, history] = await Promise.all([
    findDirectoryEntry(database.db, environment, userGroupId),
    // Named where the page says what this role cannot do here.
    mayDelete ? [] : activeAdminEmails(database.db),
    pageRead('group', () => listAuditEvents(database, historyFilters), { tooLong: HISTORY_TOO_LONG }),
  ]);
  const breadcrumb = (
    <p className="text-sm text-muted-foreground">
      <Link href={`/${slug}`} className="underline-offset-4 hover:underline">
        {environment} groups
      </Link>{' '}
      /
    </p>
  );
  // The page's subject: whole, wrapped where a line is too short for it (a long id on a phone).
  const heading = (
    <h1 className="font-mono text-xl font-semibold tracking-tight break-all sm:text-2xl">{userGroupId}</h1>
  );
  // Reading a group's history is reading the audit log: on record like any other read.
  if (history.ok) {
    await recordAuditRead(server, operator, {
      filters: historyFilters,
      rows: history.value.events.length,
      fromAnotherSite,
    });
  }

  return (
    <div className="flex flex-col gap-8">
      <div className="flex flex-col gap-1">
        {breadcrumb}
        {heading}
        {entry?.name ? <p className="text-base">{entry.name}</p> : null}
      </div>

      {!entry ? (
        <div className="flex flex-col gap-3 rounded-lg border border-dashed border-border bg-card p-4 text-sm">
          <p>The console has no record of a group with this ID in {environment}.</p>
          {mayCreate ? (
            <Link
              href={createPath(slug, userGroupId)}
              title={`Create user group “${userGroupId}”`}
              className={cn(readableId, 'font-medium underline underline-offset-4')}
            >
              Create user group “{userGroupId}”
            </Link>
          ) : null}
        </div>
      ) : (
        <>
          <section aria-labelledby="details-heading" className="flex flex-col gap-3">
            <h2 id="details-heading" className="text-base font-semibold">
              Details
            </h2>
            {entry.deletedAt ? (
              <p className="rounded-lg border border-border bg-card px-4 py-3 text-sm">
                Deleted {when(entry.deletedAt, entry.deletedBy)}.
              </p>
            ) : null}
            <DetailsList
              details={[
                { term: 'ID', description: <CopyableId value={userGroupId} /> },
                { term: 'Name', description: <OrNone value={entry.name} /> },
                { term: 'Team ID', description: <OrNone value={entry.teamId?.toString()} mono /> },
                { term: 'Properties', description: json(entry.properties) },
                {
                  term: 'Mapping',
                  description: (
                    <div className="flex flex-col gap-1">
                      {json(entry.mapping)}
                      <span className="text-xs text-muted-foreground">
                        As this console last sent it: the service never returns a mapping.
                      </span>
                    </div>
                  ),
                },
                { term: 'Token fingerprint', description: <OrNone value={entry.tokenFingerprint} mono /> },
                {
                  term: 'Created',
                  description: (
                    <OrNone value={when(entry.createdAt, entry.createdBy) ?? 'before this console knew it'} />
                  ),
                },
                {
                  term: 'Last change',
                  description: <OrNone value={when(entry.updatedAt, entry.updatedBy)} />,
                },
              ]}
            />
          </section>

          <section aria-labelledby="token-heading" className="flex flex-col gap-3">
            <h2 id="token-heading" className="text-base font-semibold">
              Token
            </h2>
            {mayShowToken ? (
              <TokenPanel
                environment={environment}
                userGroupId={userGroupId}
                deleted={entry.deletedAt !== null}
                mayRotate={can(operator.role, 'user-groups:rotate')}
                mayDelete={mayDelete}
                createHref={mayCreate ? createPath(slug, userGroupId) : null}
                deleteNeedsApproval={policyCovers(server.config.approvals.rules, 'delete', environment)}
              />
            ) : (
              <p
                data-testid="role-limits"
                className="rounded-lg border border-dashed border-border bg-card px-4 py-3 text-sm"
              >
                Your role cannot see tokens (you are a viewer): showing, copying and rotating them take the
                support or admin role, and deleting the group the admin role. If you need one,{' '}
                {askAnAdmin(admins)}.
              </p>
            )}
            {mayShowToken && !mayDelete && !entry.deletedAt ? (
              <p data-testid="role-limits" className="text-sm text-muted-foreground">
                Deleting a group is for admins: your role ({operator.role}) can show and rotate its token. To
                have it deleted, {askAnAdmin(admins)}.
              </p>
            ) : null}
          </section>
        </>
      )}

      <section aria-labelledby="history-heading" className="flex flex-col gap-3">
        <h2 id="history-heading" className="text-base font-semibold">
          History
        </h2>
        {history.ok ? (
          <AuditTable events={history.value.events} />
        ) : (
          <Alert variant="error" role="alert">
            {history.message}
          </Alert>
        )}
      </section>
    </div>
  );
}
