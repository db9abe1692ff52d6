import type { Metadata } from 'next';
import { GetOrCreateSection } from '@/app/(console)/_components/get-or-create-form';
import { type DirectoryEntry, findDirectoryEntry } from '@/lib/directory/store';
import { pageContext } from '@/lib/server/page-context';
import { formatUtc } from '@/lib/time';
import { userGroupIdSchema } from '@/lib/user-group-api/contract';
import { environmentTitle, pageEnvironment } from '../_components/environment';

type NewGroupPageProps = {
  params: Promise<{ environment: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
};

export async function generateMetadata({ params }: NewGroupPageProps): Promise<Metadata> {
  return { title: environmentTitle(await pageEnvironment(params), 'Create a user group') };
}

const jsonText = (value: Record<string, unknown> | null) => (value ? JSON.stringify(value, null, 2) : '');

/** A deleted group's record as the form's values (Create it again), with when and by whom it went. */
function recordedValues(entry: DirectoryEntry | null) {
  if (!entry?.deletedAt) return null;
  const at = formatUtc(entry.deletedAt);
  return {
    values: {
      name: entry.name ?? '',
      mapping: jsonText(entry.mapping),
      properties: jsonText(entry.properties),
    },
    deleted: entry.deletedBy ? `on ${at} by ${entry.deletedBy}` : `on ${at}`,
  };
}

export default async function NewGroupPage({ params, searchParams }: NewGroupPageProps) {
  const environment = await pageEnvironment(params);
  const { server } = await pageContext('user-groups:get-or-create');
  const requested = (await searchParams).id;
  const id = (Array.isArray(requested) ? requested[0] : requested) ?? '';
  const { database } = server;
  // Only an id the form would send is looked up (PostgreSQL text cannot hold a NUL, for one).
  const entry = userGroupIdSchema.safeParse(id).success
    ? await findDirectoryEntry(database.db, environment, id)
    : null;
  return <GetOrCreateSection environment={environment} initialId={id} recorded={recordedValues(entry)} />;
}
