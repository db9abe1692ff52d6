import type { Metadata } from 'next';
import Link from 'next/link';
import { Alert } from '@/components/ui/alert';
import { auditActions } from '@/lib/audit/actions';
import {
  type AuditCursor,
  type AuditFilters,
  auditFiltersQuery,
  parseAuditFilters,
} from '@/lib/audit/filters';
import { listAuditItems } from '@/lib/audit/listing';
import { recordAuditRead } from '@/lib/audit/server';
import { consoleRoutes, routePath } from '@/lib/console-api/routes';
import { plural } from '@/lib/plural';
import { can } from '@/lib/roles';
import { type PageContext, pageContext } from '@/lib/server/page-context';
import { pageRead } from '@/lib/server/page-read';
import { looksLikeToken } from '@/lib/tokens/contract';
import { AuditFiltersForm } from './_components/audit-filters-form';
import { AuditTable } from './_components/audit-table';
import { AuditStreamStatus } from './_components/stream-status';
import { VerifyChain } from './_components/verify-chain';

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
        {context.server.config.auditStream && can(operator.role, 'operators:manage') ? (
          <AuditStreamStatus db={context.server.database.db} now={context.server.clock.now()} />
        ) : null}
      </div>
      {can(operator.role, 'audit:verify') ? <VerifyChain /> : null}
      <AuditFiltersForm
        values={typed}
        actions={auditActions}
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
  const read = await pageRead('audit', () => listAuditItems(database, filters));
  if (!read.ok) {
    return (
      <Alert variant="error" role="alert">
        {read.message}
      </Alert>
    );
  }
  const page = read.value;
  const shown = page.items.reduce((rows, item) => rows + (item.kind === 'entry' ? 1 : item.events.length), 0);
  await recordAuditRead(server, operator, { filters, rows: shown, fromAnotherSite: context.fromAnotherSite });
  const exportQuery = auditFiltersQuery(filters);
  const pageLink = (cursor: AuditCursor) => {
    const pageQuery = auditFiltersQuery(filters, cursor);
    return pageQuery ? `/audit?${pageQuery}` : '/audit';
  };
  const pager = (label: string) => (
    <AuditPager
      label={label}
      newer={page.previousAfter !== null ? pageLink({ after: page.previousAfter }) : null}
      older={page.nextBefore !== null ? pageLink({ before: page.nextBefore }) : null}
    />
  );
  // Counted up to 1,000: a year of entries is not counted on every page.
  const entries = page.totalIsLowerBound
    ? `${page.total.toLocaleString('en')}+ entries`
    : plural(page.total, 'entry');
  const rows = page.totalIsLowerBound
    ? `${page.total.toLocaleString('en')}+ rows`
    : plural(page.total, 'row');
  return (
    <section aria-label="Results" className="flex flex-col gap-3">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <p className="text-sm text-muted-foreground" data-testid="audit-summary" data-focus-result>
          {entries}
          {/* Verify's count is the whole log's: this one is what the filters show (#43, item 7). */}
          {filters.reads
            ? ' matching the filters'
            : // Said as a sentence: "(Include reads)" in brackets read as a link (#43's second walk).
              ' matching the filters; reads are counted when Include reads is ticked'}
          {page.previousAfter !== null ? ' · older entries' : ''}
        </p>
        <a
          href={`${routePath(consoleRoutes.exportAudit, {})}${exportQuery ? `?${exportQuery}` : ''}`}
          download
          className="inline-flex h-8 items-center rounded-md border border-border bg-card px-3 text-xs font-medium shadow-xs hover:bg-muted"
        >
          Export CSV ({rows})
        </a>
      </div>
      {/* Above the entries too: Older was 82 Tabs away, through every row (#43, item 3). */}
      {pager('Pages, above the entries')}
      <AuditTable items={page.items} />
      {pager('Pages')}
    </section>
  );
}

/** Newer / Older, where there are such pages; a page without one says so in the other's place. */
function AuditPager({ label, newer, older }: { label: string; newer: string | null; older: string | null }) {
  if (newer === null && older === null) return null;
  return (
    <nav aria-label={label} className="flex items-center justify-between gap-2 text-sm">
      {newer !== null ? (
        <Link href={newer}>← Newer</Link>
      ) : (
        <span className="text-muted-foreground">Newest</span>
      )}
      {older !== null ? (
        <Link href={older}>Older →</Link>
      ) : (
        <span className="text-muted-foreground">Oldest entries: the end of the log</span>
      )}
    </nav>
  );
}
