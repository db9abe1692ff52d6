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

/**
 * The console's table: wide tables scroll sideways on small screens, inside a region that is named
 * and reachable from the keyboard (axe: scrollable-region-focusable). Give it a `min-w-*` class for
 * the width below which it scrolls. Renders on the server as in the browser.
 */
export function Table({ label, regionClassName, after, className, ...props }: TableProps) {
  return (
    <section
      className={cn('overflow-x-auto rounded-lg border border-border bg-card', regionClassName)}
      aria-label={label}
      // biome-ignore lint/a11y/noNoninteractiveTabindex: a region that scrolls sideways must be reachable from the keyboard (axe scrollable-region-focusable)
      tabIndex={0}
    >
      <table className={cn('w-full text-left text-sm', className)} {...props} />
      {after}
    </section>
  );
}

export function TableHeader({ className, ...props }: ComponentProps<'thead'>) {
  return (
    <thead
      className={cn('border-b border-border text-left text-xs text-muted-foreground', className)}
      {...props}
    />
  );
}

/** A column's heading (`scope="col"`). */
export function TableHead({ className, ...props }: ComponentProps<'th'>) {
  return <th scope="col" className={cn('px-3 py-2 font-medium', className)} {...props} />;
}

export function TableRow({ className, ...props }: ComponentProps<'tr'>) {
  return <tr className={cn('border-b border-border last:border-0', className)} {...props} />;
}

export function TableCell({ className, ...props }: ComponentProps<'td'>) {
  return <td className={cn('px-3 py-2', className)} {...props} />;
}
