import type { Metadata } from 'next';
import { GetOrCreateSection } from '@/app/(console)/_components/get-or-create-form';
import { requirePageOperator } from '@/lib/server/page-guard';
import { environmentTitle, pageEnvironment } from '../_components/environment';

type NewGroupPageProps = {
  params: Promise<{ environment: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
};

export async function generateMetadata({ params }: NewGroupPageProps): Promise<Metadata> {
  return { title: environmentTitle(await pageEnvironment(params), 'Create a user group') };
}

export default async function NewGroupPage({ params, searchParams }: NewGroupPageProps) {
  const environment = await pageEnvironment(params);
  await requirePageOperator('user-groups:get-or-create');
  const id = (await searchParams).id;
  return <GetOrCreateSection environment={environment} initialId={(Array.isArray(id) ? id[0] : id) ?? ''} />;
}
