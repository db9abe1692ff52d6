import type { ReactNode } from 'react';

export type Detail = { term: string; description: ReactNode };

/** Facts about a user group as a definition list: term on the left, value on the right (stacked on phones). */
export function DetailsList({ details }: { details: Detail[] }) {
  return (
    <dl className="grid grid-cols-1 gap-x-6 gap-y-1 text-sm sm:grid-cols-[9rem_minmax(0,1fr)] sm:gap-y-3">
      {details.map(({ term, description }) => (
        <div key={term} className="contents">
          <dt className="pt-2 text-muted-foreground sm:pt-0">{term}</dt>
          <dd className="min-w-0 wrap-anywhere">{description}</dd>
        </div>
      ))}
    </dl>
  );
}

/** A value that may be empty, shown as a muted "none". */
export function OrNone({ value, mono = false }: { value: string | null | undefined; mono?: boolean }) {
  if (value === null || value === undefined || value === '') {
    return <span className="text-muted-foreground">none</span>;
  }
  return mono ? <code className="font-mono text-[13px]">{value}</code> : <span>{value}</span>;
}
