import { notFound } from 'next/navigation';
import { type Environment, environmentFromSlug, environmentLooks } from '@/lib/environments';

/** The environment a page's URL names; any other slug is a 404. */
export async function pageEnvironment(params: Promise<{ environment: string }>): Promise<Environment> {
  const environment = environmentFromSlug((await params).environment);
  if (!environment) notFound();
  return environment;
}

/** A page title that says which environment it is in: "Acme · Customer (production)". */
export function environmentTitle(environment: Environment, page: string): string {
  const look = environmentLooks[environment];
  return `${page} · ${look.label} (${look.kind}) · User Group Console`;
}
