'use client';

import { ChevronDown } from 'lucide-react';
import { useRouter } from 'next/navigation';
import { type FormEvent, useId, useState } from 'react';
import { focusResultOnArrival } from '@/components/focus-keeper';
import { type FormControlProps, FormField } from '@/components/form-field';
import { handOverToken } from '@/components/token-handoff';
import { Button } from '@/components/ui/button';
import { cn } from '@/components/ui/cn';
import { Input } from '@/components/ui/input';
import type { AuditFilters } from '@/lib/audit/filters';
import { environmentFromSlug, environments, slugOf } from '@/lib/environments';
import { looksLikeToken } from '@/lib/tokens/contract';

type AuditFiltersFormProps = {
  /** The values as typed (kept even when invalid, so they can be corrected). */
  values: Partial<Record<keyof AuditFilters, string>>;
  /** Every action the log knows (lib/audit/actions.ts), handed down: read from the routes' definitions. */
  actions: readonly string[];
  errors: Record<string, string>;
  /** The operator's role may identify tokens (support and admin). */
  mayIdentify: boolean;
};

/** The free-text filters, where a pasted token could land. */
// Every filter a person types in: a token typed there (From and To included) never reaches the URL.
const textFilters = ['operator', 'group', 'from', 'to'] as const;

const selectClassName =
  'h-9 w-full rounded-md border border-input bg-card px-2 text-sm text-foreground shadow-xs outline-none focus-visible:border-ring focus-visible:ring-2 focus-visible:ring-ring/30';

/** How many filters the view has set, for the narrow screen's "Filters (2 set)". */
function filtersSet(values: AuditFiltersFormProps['values']): number {
  const fields = ['operator', 'action', 'environment', 'group', 'from', 'to'] as const;
  return (
    fields.filter((name) => (values[name] ?? '').trim() !== '').length + (values.reads === 'include' ? 1 : 0)
  );
}

/**
 * A plain GET form: filtering works without JavaScript and every view has its own URL. A token
 * typed into a text filter never goes into that URL (the address bar, the history, the server's
 * logs): it is taken to Identify in memory instead, as the directory's search does, or refused for
 * a role that cannot identify tokens. On a narrow screen the fields fold behind "Filters (2 set)"
 * (they took a screen and a half before the first entry), open while a filter has an error.
 */
export function AuditFiltersForm({ values, actions, errors, mayIdentify }: AuditFiltersFormProps) {
  const router = useRouter();
  const fieldsId = useId();
  const [tokenIn, setTokenIn] = useState<(typeof textFilters)[number] | null>(null);
  const [unfolded, setUnfolded] = useState(false);
  const set = filtersSet(values);
  const shownErrors: Record<string, string | undefined> = {
    ...errors,
    ...(tokenIn
      ? {
          [tokenIn]: mayIdentify
            ? 'looks like a token: it is not searched here'
            : 'looks like a token: the log names tokens by fingerprint, and your role cannot identify tokens',
        }
      : {}),
  };

  // A filter with an error is never folded away: the person has to see it to correct it.
  const open = unfolded || Object.values(shownErrors).some(Boolean);

  function submit(event: FormEvent<HTMLFormElement>) {
    const form = new FormData(event.currentTarget);
    const name = textFilters.find((filter) => looksLikeToken(String(form.get(filter) ?? '')));
    event.preventDefault();
    if (!name) {
      // In place rather than a new page load (which left the focus at the top): the same URL as
      // the form's own GET, and the focus on the count of what the filters show (or the error).
      const query = new URLSearchParams();
      for (const [key, value] of form) if (typeof value === 'string' && value.trim()) query.set(key, value);
      const destination = query.size > 0 ? `/audit?${query}` : '/audit';
      focusResultOnArrival(destination);
      router.push(destination);
      return;
    }
    setTokenIn(name);
    if (!mayIdentify) return;
    handOverToken(String(form.get(name)));
    const environment = environmentFromSlug(String(form.get('environment') ?? '').toLowerCase());
    router.push(`/${slugOf[environment ?? 'Customer']}/paste-token`);
  }

  const field = (
    name: keyof AuditFilters,
    label: string,
    control: (props: FormControlProps) => React.ReactNode,
    description?: string,
  ) => (
    <FormField
      id={`filter-${name}`}
      label={label}
      description={description}
      error={shownErrors[name]}
      className="gap-1.5"
    >
      {control}
    </FormField>
  );

  return (
    <form
      method="get"
      action="/audit"
      aria-label="Filter the audit log"
      className="flex flex-col gap-4"
      onSubmit={submit}
    >
      <button
        type="button"
        aria-expanded={open}
        aria-controls={fieldsId}
        onClick={() => setUnfolded(!open)}
        className="inline-flex h-9 items-center gap-2 self-start rounded-md border border-border bg-card px-3 text-sm font-medium hover:bg-muted sm:hidden"
      >
        <ChevronDown aria-hidden="true" className={cn('size-4 transition-transform', open && 'rotate-180')} />
        Filters ({set === 0 ? 'none set' : `${set} set`})
      </button>
      <div id={fieldsId} className={cn('flex-col gap-4 sm:flex', open ? 'flex' : 'hidden')}>
        <div className="grid grid-cols-1 gap-4 sm:grid-cols-2 lg:grid-cols-3">
          {field('operator', 'Person (email contains)', (control) => (
            <Input {...control} name="operator" defaultValue={values.operator ?? ''} />
          ))}
          {field('action', 'Action', (control) => (
            <select {...control} name="action" defaultValue={values.action ?? ''} className={selectClassName}>
              <option value="">Any action</option>
              {actions.map((action) => (
                <option key={action} value={action}>
                  {action}
                </option>
              ))}
            </select>
          ))}
          {field('environment', 'Environment', (control) => (
            <select
              {...control}
              name="environment"
              defaultValue={values.environment ?? ''}
              className={selectClassName}
            >
              <option value="">Any environment</option>
              {environments.map((environment) => (
                <option key={environment} value={environment}>
                  {environment}
                </option>
              ))}
            </select>
          ))}
          {field(
            'group',
            'User group ID (contains)',
            (control) => (
              <Input {...control} name="group" defaultValue={values.group ?? ''} />
            ),
            // The trigram index answers parts of three characters or more (lib/audit/query.ts).
            'Three characters or more, or the whole ID.',
          )}
          {/* Text, not datetime-local: the browser showed its own locale (mm/dd/yyyy, AM/PM) under
              "UTC". Written as the log writes times, 24-hour UTC; lib/audit/filters.ts checks them. */}
          {field(
            'from',
            'From (UTC)',
            (control) => (
              <Input
                {...control}
                name="from"
                type="text"
                spellCheck={false}
                autoComplete="off"
                placeholder="2026-11-21T14:30"
                defaultValue={values.from ?? ''}
              />
            ),
            'A date, or a date and 24-hour time, in UTC.',
          )}
          {field(
            'to',
            'To (UTC, inclusive)',
            (control) => (
              <Input
                {...control}
                name="to"
                type="text"
                spellCheck={false}
                autoComplete="off"
                placeholder="2026-11-21T18:00"
                defaultValue={values.to ?? ''}
              />
            ),
            'A date includes the whole day.',
          )}
        </div>
        <div className="flex items-center gap-2 text-sm">
          <input
            id="filter-reads"
            type="checkbox"
            name="reads"
            value="include"
            defaultChecked={values.reads === 'include'}
            className="size-4 accent-primary"
          />
          <label htmlFor="filter-reads">
            Include reads{' '}
            <span className="text-muted-foreground">(tokens shown or looked up, this log read)</span>
          </label>
        </div>
        <div className="flex flex-wrap gap-2">
          <Button type="submit">Apply filters</Button>
          <a
            href="/audit"
            className="inline-flex h-9 items-center rounded-md px-4 text-sm font-medium text-foreground hover:bg-muted"
          >
            Clear
          </a>
        </div>
      </div>
    </form>
  );
}
