import type { Metadata } from 'next';
import Link from 'next/link';
import { Alert } from '@/components/ui/alert';
import { cn } from '@/components/ui/cn';
import { readableId } from '@/components/ui/identifier';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { type DirectorySort, directorySorts, searchDirectory } from '@/lib/directory/search';
import { findDirectoryEntry } from '@/lib/directory/store';
import { slugOf } from '@/lib/environments';
import { plural } from '@/lib/plural';
import { can } from '@/lib/roles';
import { pageContext } from '@/lib/server/page-context';
import { pageRead } from '@/lib/server/page-read';
import { utcMinute } from '@/lib/time';
import { CreateOffer } from './_components/create-offer';
import { DirectorySearch } from './_components/directory-search';
import { environmentTitle, pageEnvironment } from './_components/environment';
import { groupPath } from './_components/paths';
import { RotateSelected } from './_components/rotate-selected';
import { SelectAllOnPage } from './_components/select-all-on-page';

type DirectoryPageProps = {
  params: Promise<{ environment: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
};

export async function generateMetadata({ params }: DirectoryPageProps): Promise<Metadata> {
  return { title: environmentTitle(await pageEnvironment(params), 'User groups') };
}

const first = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value) ?? '';

const sortLabels: Record<DirectorySort, string> = {
  updated: 'Last change',
  id: 'ID',
  name: 'Name',
  created: 'Created',
};

function groupCount({ total, totalIsLowerBound }: { total: number; totalIsLowerBound: boolean }) {
  if (totalIsLowerBound) return `${total.toLocaleString('en-US')}+ groups`;
  return plural(total, 'group');
}

/** A read past the limit, said for what the person did: searched, or only opened the list. */
const SEARCH_TOO_LONG =
  'This search took too long and was stopped: try a longer part of the id or name, then search again.';
const LIST_TOO_LONG =
  'The list of groups took too long to read and was stopped. Try again in a moment, or find a group by part of its id or name.';

/** An environment's front page: find a group (or create it), and the directory of known groups. */
export default async function DirectoryPage({ params, searchParams }: DirectoryPageProps) {
  const environment = await pageEnvironment(params);
  const { server, operator } = await pageContext('console:use');
  const slug = slugOf[environment];
  const query = await searchParams;
  const q = first(query.q).trim().slice(0, 200);
  const sort = directorySorts.find((candidate) => candidate === first(query.sort)) ?? 'updated';
  const descending = first(query.order)
    ? first(query.order) === 'desc'
    : sort === 'updated' || sort === 'created';
  const page = Math.max(1, Math.min(100_000, Number.parseInt(first(query.page), 10) || 1));
  const { database } = server;
  const search = (
    <DirectorySearch
      initialQuery={q}
      slug={slug}
      mayIdentify={can(operator.role, 'user-groups:reveal-token')}
    />
  );
  const read = await pageRead(
    'directory',
    () =>
      Promise.all([
        searchDirectory(database, { environment, search: q, sort, descending, page }),
        q ? findDirectoryEntry(database.db, environment, q) : null,
      ]),
    { tooLong: q ? SEARCH_TOO_LONG : LIST_TOO_LONG },
  );
  if (!read.ok) {
    return (
      <div className="flex flex-col gap-6">
        <h1 className="text-2xl font-semibold tracking-tight">User groups</h1>
        {search}
        <Alert variant="error" role="alert">
          {read.message}
        </Alert>
      </div>
    );
  }
  const [directory, exact] = read.value;
  const mayCreate = can(operator.role, 'user-groups:get-or-create');
  const mayRotate = can(operator.role, 'user-groups:rotate');
  // No group has the exact id searched for: the offer to create it comes after the matches, so that
  // on a phone the groups that do exist are on the first screen; with no match, it comes first.
  const createOffer =
    q && (!exact || exact.deletedAt) ? (
      <CreateOffer
        userGroupId={q}
        environment={environment}
        slug={slug}
        deleted={Boolean(exact)}
        mayCreate={mayCreate}
      />
    ) : null;
  const matchesFirst = directory.groups.length > 0;
  const link = (changes: Record<string, string | number | undefined>) => {
    const next = new URLSearchParams();
    const values = { q, sort, order: descending ? 'desc' : 'asc', page, ...changes };
    for (const [key, value] of Object.entries(values))
      if (value !== undefined && value !== '') next.set(key, String(value));
    return `/${slug}?${next}`;
  };

  return (
    <div className="flex flex-col gap-6">
      <h1 className="text-2xl font-semibold tracking-tight">User groups</h1>
      {search}
      {matchesFirst ? null : createOffer}
      <section aria-labelledby="directory-heading" className="flex flex-col gap-3">
        <div className="flex flex-wrap items-baseline justify-between gap-2">
          <h2 id="directory-heading" className="text-base font-semibold">
            Directory
          </h2>
          <p className="text-sm text-muted-foreground" data-testid="directory-summary" data-focus-result>
            {groupCount(directory)}
            {q ? ` matching “${q}”` : ''} · page {directory.page} of {directory.pageCount}
            {directory.totalIsLowerBound ? ' · refine the search to see the others' : ''}
          </p>
        </div>
        {/* Keyed by the page shown: another page or search starts with nothing ticked. */}
        <form key={link({})} aria-label="Directory" className="flex flex-col gap-3">
          <Table
            label="Directory table"
            className="min-w-[40rem]"
            after={
              directory.groups.length === 0 ? (
                <p className="px-3 py-6 text-center text-sm text-muted-foreground">
                  {q ? 'No group matches.' : 'No group yet: find or create one above.'}
                </p>
              ) : null
            }
          >
            <caption className="sr-only">User groups of {environment} known to this console</caption>
            <TableHeader stacked="toolbar">
              <TableRow>
                {mayRotate ? (
                  <TableHead className="w-8">
                    <SelectAllOnPage />
                  </TableHead>
                ) : null}
                {(['id', 'name', 'updated', 'created'] as const).map((column) => (
                  <TableHead
                    key={column}
                    aria-sort={sort === column ? (descending ? 'descending' : 'ascending') : undefined}
                  >
                    <Link
                      href={link({
                        sort: column,
                        order: sort === column && !descending ? 'desc' : 'asc',
                        page: 1,
                      })}
                      className="hover:text-foreground"
                    >
                      {sortLabels[column]}
                      {sort === column ? (descending ? ' ↓' : ' ↑') : ''}
                    </Link>
                  </TableHead>
                ))}
                <TableHead>Team ID</TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {directory.groups.map((group) => (
                <TableRow key={group.userGroupId} data-testid="directory-row">
                  {mayRotate ? (
                    <TableCell label="Select">
                      <input
                        type="checkbox"
                        name="rotate"
                        value={group.userGroupId}
                        aria-label={`Select ${group.userGroupId}`}
                        className="size-4 accent-primary focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring"
                      />
                    </TableCell>
                  ) : null}
                  <TableCell label="ID" className="font-mono">
                    <Link
                      href={groupPath(slug, group.userGroupId)}
                      title={group.userGroupId}
                      className={cn(readableId, 'underline-offset-4 hover:underline')}
                    >
                      {group.userGroupId}
                    </Link>
                  </TableCell>
                  <TableCell label="Name">{group.name ?? '—'}</TableCell>
                  <TableCell label="Last change" className="whitespace-nowrap">
                    <time dateTime={group.updatedAt}>{utcMinute(group.updatedAt)}</time>
                    {group.updatedBy ? (
                      <span className="text-muted-foreground"> · {group.updatedBy}</span>
                    ) : null}
                  </TableCell>
                  <TableCell label="Created" className="whitespace-nowrap text-muted-foreground">
                    {group.createdAt ? group.createdAt.slice(0, 10) : 'before this console'}
                  </TableCell>
                  <TableCell label="Team ID" className="font-mono">
                    {group.teamId ?? '—'}
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
          {mayRotate && directory.groups.length > 0 ? (
            <RotateSelected
              environment={environment}
              allMatches={
                q && !directory.totalIsLowerBound && directory.total > directory.groups.length
                  ? { search: q, count: directory.total }
                  : null
              }
            />
          ) : null}
        </form>
        {directory.pageCount > 1 ? (
          <nav aria-label="Pages" className="flex items-center justify-between text-sm">
            {directory.page > 1 ? (
              <Link href={link({ page: directory.page - 1 })}>← Previous</Link>
            ) : (
              <span />
            )}
            {directory.page < directory.pageCount ? (
              <Link href={link({ page: directory.page + 1 })}>Next →</Link>
            ) : (
              <span />
            )}
          </nav>
        ) : null}
      </section>
      {matchesFirst ? createOffer : null}
      <p className={cn('text-xs text-muted-foreground')}>
        The service has no list call: this directory holds the groups this console has got, created, rotated
        or deleted.
      </p>
    </div>
  );
}
