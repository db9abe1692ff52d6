import type { ComponentProps } from 'react';
import { cn } from './cn';

/**
 * An identifier (a user group's id) is always readable whole, on a phone too (#43, item 1). Where it
 * is the subject (a heading, an answer, a details row) it wraps inside when a line is too short:
 * cutting it hid `enterprise-customer-northwin…` behind a tooltip a phone cannot show. As an inline
 * block it goes to the next line whole when it fits there, so a short "acme-corp" never reads as
 * "acme-" and "corp". In a table's column (components/ui/table.tsx) from 40rem up it takes at most
 * 40 characters on one line, cut with an ellipsis (or a long id would squeeze every other column):
 * the full id stays its text (read aloud, searched, copied), its `title`, and one tap away on the
 * group's page; in a table's stacked rows (a phone) it wraps again. For a link, put `readableId` on
 * the element itself with `title={id}` (an inline-block child would lose the link's underline).
 */
export const readableId =
  'inline-block max-w-full break-all align-bottom @min-[40rem]/table-region:max-w-[40ch] @min-[40rem]/table-region:truncate';

export function Identifier({ value, className, ...props }: ComponentProps<'span'> & { value: string }) {
  return (
    <span title={value} className={cn(readableId, 'font-mono', className)} {...props}>
      {value}
    </span>
  );
}
