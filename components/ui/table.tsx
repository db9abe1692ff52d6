import type { ComponentProps, ReactNode } from 'react';
import { cn } from './cn';

type TableProps = ComponentProps<'table'> & {
  /** Names the region the table scrolls in (read before the table's caption). */
  label: string;
  /** Classes of that region (its border, its background). */
  regionClassName?: string;
  /** Shown in the region under the table (say, why it has no rows). */
  after?: ReactNode;
};

/*
 * Below 40rem of room (a phone: `stacked:` in globals.css, a container query on the region) the
 * table is shown as stacked rows: each row a card, each cell a line "label  value", the label
 * drawn from the cell's `label` (its column's heading). It stays the same <table>: the header row is
 * still there for screen readers (visually hidden), and every element carries its role explicitly,
 * since WebKit (Safari, VoiceOver) drops a table's semantics once its display is no longer a table's.
 */

/**
 * The console's table: a real table from 40rem of room up, whose wide columns scroll sideways
 * inside a region that is named and reachable from the keyboard (axe: scrollable-region-focusable);
 * give it a `min-w-*` class for the width below which it scrolls. Narrower (a phone), stacked rows,
 * which never scroll sideways (the `min-w-*` then no longer applies). Renders on the server as in
 * the browser.
 */
export function Table({ label, regionClassName, after, className, ...props }: TableProps) {
  return (
    <section
      className={cn(
        '@container/table-region overflow-x-auto rounded-lg border border-border bg-card',
        regionClassName,
      )}
      aria-label={label}
      // biome-ignore lint/a11y/noNoninteractiveTabindex: a region that scrolls sideways must be reachable from the keyboard (axe scrollable-region-focusable)
      tabIndex={0}
    >
      <table
        // biome-ignore lint/a11y/noRedundantRoles: kept when stacked rows change its display (WebKit drops the implicit role)
        role="table"
        className={cn('w-full text-left text-sm', className, 'stacked:block stacked:min-w-0')}
        {...props}
      />
      {after}
    </section>
  );
}

type TableHeaderProps = ComponentProps<'thead'> & {
  /**
   * The header row as stacked rows show it: `hidden` (for screen readers only: each cell names its
   * column itself), or `toolbar` when the header holds controls (sorting, select all) that phones
   * need too: a wrapping row of them, its plain headings hidden (`sr-only`).
   */
  stacked?: 'hidden' | 'toolbar';
};

export function TableHeader({ className, stacked = 'hidden', ...props }: TableHeaderProps) {
  return (
    <thead
      // biome-ignore lint/a11y/noRedundantRoles: kept when stacked rows change its display (WebKit drops the implicit role)
      role="rowgroup"
      className={cn(
        'border-b border-border text-left text-xs text-muted-foreground',
        stacked === 'hidden'
          ? 'stacked:sr-only'
          : [
              'stacked:block stacked:[&>tr]:flex stacked:[&>tr]:flex-wrap stacked:[&>tr]:items-center',
              'stacked:[&>tr]:gap-x-1 stacked:[&>tr]:px-1.5 stacked:[&>tr]:py-1 stacked:[&>tr>th]:block',
              'stacked:[&>tr>th]:px-1.5 stacked:[&>tr>th:not(:has(a,input))]:sr-only',
            ],
        className,
      )}
      {...props}
    />
  );
}

/** A column's heading (`scope="col"`). */
export function TableHead({ className, ...props }: ComponentProps<'th'>) {
  return (
    <th
      scope="col"
      // biome-ignore lint/a11y/noRedundantRoles: kept when stacked rows change its display (WebKit drops the implicit role)
      role="columnheader"
      className={cn('px-3 py-2 font-medium', className)}
      {...props}
    />
  );
}

export function TableBody(props: ComponentProps<'tbody'>) {
  return (
    // biome-ignore lint/a11y/noRedundantRoles: kept when stacked rows change its display (WebKit drops the implicit role)
    <tbody role="rowgroup" {...props} className={cn('stacked:block', props.className)} />
  );
}

export function TableRow({ className, ...props }: ComponentProps<'tr'>) {
  return (
    <tr
      // biome-ignore lint/a11y/noRedundantRoles: kept when stacked rows change its display (WebKit drops the implicit role)
      role="row"
      className={cn('border-b border-border last:border-0', 'stacked:block stacked:py-2', className)}
      {...props}
    />
  );
}

type TableCellProps = ComponentProps<'td'> & {
  /**
   * Its column's heading, shown before the value when rows are stacked (a phone), where the header
   * row is not seen; read from the header by screen readers, so drawn aria-hidden (globals.css).
   * A cell without one (a note across the row) takes the card's whole width.
   */
  label?: string;
};

export function TableCell({ className, label, ...props }: TableCellProps) {
  return (
    <td
      // biome-ignore lint/a11y/noRedundantRoles: kept when stacked rows change its display (WebKit drops the implicit role)
      role="cell"
      data-label={label}
      className={cn(
        'px-3 py-2',
        className,
        'stacked:py-1 stacked:whitespace-normal stacked:empty:hidden',
        label ? 'stacked:cell-label' : 'stacked:block stacked:pl-3',
      )}
      {...props}
    />
  );
}
