import { randomUUID } from 'node:crypto';
import type { Metadata } from 'next';
import Link from 'next/link';
import { Alert } from '@/components/ui/alert';
import { type AuditFilters, auditFiltersQuery, parseAuditFilters } from '@/lib/audit/filters';
import { listAuditItems } from '@/lib/audit/store';
import { consoleRoutes, routePath } from '@/lib/console-api/routes';
import { plural } from '@/lib/plural';
import { can } from '@/lib/roles';
import { type PageContext, pageContext } from '@/lib/server/page-context';
import { looksLikeToken } from '@/lib/tokens/contract';
import { AuditFiltersForm } from './_components/audit-filters-form';
import { AuditTable } from './_components/audit-table';

export const metadata: Metadata = { title: 'Audit log · User Group Console' };

type AuditPageProps = { searchParams: Promise<Record<string, string | string[] | undefined>> };

export default async function AuditPage({ searchParams }: AuditPageProps) {
  const params = await searchParams;
  const typed = Object.fromEntries(
    Object.entries(params).map(([key, value]) => [key, Array.isArray(value) ? value[0] : value]),
  ) as Partial<Record<keyof AuditFilters, string>>;
  const context = await pageContext('console:use');
  const { operator } = context;
  const parsed = parseAuditFilters(params);
  // A token that reached the URL anyway (a form sent without JavaScript) is not written back into
  // the page: the field stays empty and says why.
  const tokenErrors: Record<string, string> = {};
  for (const name of ['operator', 'group'] as const)
    if (typed[name] && looksLikeToken(typed[name])) {
      typed[name] = '';
      tokenErrors[name] = 'looked like a token: it is not kept here. Use Paste a token to identify one.';
    }

  return (
    <div className="flex flex-col gap-6">
      <div className="flex flex-col gap-1.5">
        <h1 className="text-2xl font-semibold tracking-tight">Audit log</h1>
        <p className="text-sm text-muted-foreground">
          Every sign-in, get-or-create, rotation, deletion and operator change, newest first; reads (tokens
          shown or looked up, this log read) too with <em>Include reads</em>. Tokens appear as fingerprints
          (the first 12 hex characters of their SHA-256), never in full.
        </p>
      </div>
      <AuditFiltersForm
        values={typed}
        errors={{ ...(parsed.success ? {} : parsed.fields), ...tokenErrors }}
        mayIdentify={can(operator.role, 'user-groups:reveal-token')}
      />
      {parsed.success ? (
        <AuditResults filters={parsed.filters} context={context} />
      ) : (
        <Alert variant="error" role="alert">
          Check the filters marked above.
        </Alert>
      )}
    </div>
  );
}

async function AuditResults({ filters, context }: { filters: AuditFilters; context: PageContext }) {
  const { server, operator } = context;
  const { database } = server;
  const page = await listAuditItems(database.db, filters);
  const shown = page.items.reduce((rows, item) => rows + (item.kind === 'entry' ? 1 : item.events.length), 0);
  await server.auditLog.read('audit.read', operator, randomUUID(), filters, shown, context.fromAnotherSite);
  const exportQuery = auditFiltersQuery(filters);
  const pageLink = (number: number) => {
    const pageQuery = auditFiltersQuery(filters, number);
    return pageQuery ? `/audit?${pageQuery}` : '/audit';
  };
  return (
    <section aria-label="Results" className="flex flex-col gap-3">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <p className="text-sm text-muted-foreground" data-testid="audit-summary">
          {plural(page.total, 'entry')} · page {page.page} of {page.pageCount}
        </p>
        <a
          href={`${routePath(consoleRoutes.exportAudit, {})}${exportQuery ? `?${exportQuery}` : ''}`}
          download
          className="inline-flex h-8 items-center rounded-md border border-border bg-card px-3 text-xs font-medium shadow-xs hover:bg-muted"
        >
          Export CSV ({plural(page.total, 'row')})
        </a>
      </div>
      <AuditTable items={page.items} />
      {page.pageCount > 1 ? (
        <nav aria-label="Pages" className="flex items-center justify-between gap-2 text-sm">
          {page.page > 1 ? <Link href={pageLink(page.page - 1)}>← Newer</Link> : <span />}
          {page.page < page.pageCount ? <Link href={pageLink(page.page + 1)}>Older →</Link> : <span />}
        </nav>
      ) : null}
    </section>
  );
}
