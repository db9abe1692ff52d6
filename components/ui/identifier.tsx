import type { ComponentProps } from 'react';
import { cn } from './cn';

/**
 * An identifier (a user group's id) never breaks inside: "acme-corp" read as "acme-" and "corp" on
 * two lines is two ids to a support person. On one line it goes to the next line whole, and where
 * even a line is too short (a long id on a phone) it is cut with an ellipsis: the full id stays in
 * the text (what is read aloud, searched and copied) and in the `title`. For a link or a heading,
 * put `oneLineId` on the element itself with `title={id}` (an inline-block child would lose the
 * link's underline). In a table's column (components/ui/table.tsx) it takes at most 40 characters, or a
 * long id would squeeze every other column.
 */
export const oneLineId =
  'inline-block max-w-full truncate align-bottom @min-[40rem]/table-region:max-w-[40ch]';

export function Identifier({ value, className, ...props }: ComponentProps<'span'> & { value: string }) {
  return (
    <span title={value} className={cn(oneLineId, 'font-mono', className)} {...props}>
      {value}
    </span>
  );
}
