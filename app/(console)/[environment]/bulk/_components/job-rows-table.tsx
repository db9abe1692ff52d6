import { problemStanding, StandingBadge } from '@/components/token-standing-badge';
import { Identifier } from '@/components/ui/identifier';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';

/** A job's rows that went wrong (not valid, or failed when sent): line, id and what is wrong. */
export function JobRowsTable({
  heading,
  rows,
  testId,
}: {
  heading: string;
  rows: { line: number; id: string | null; text: string }[];
  testId: string;
}) {
  return (
    <section aria-label={heading} className="flex flex-col gap-2">
      <h2 className="text-base font-semibold">{heading}</h2>
      <Table label={`${heading}, table`} className="min-w-[32rem]" data-testid={testId}>
        <TableHeader>
          <TableRow>
            <TableHead>Line</TableHead>
            <TableHead>ID</TableHead>
            <TableHead>What is wrong</TableHead>
          </TableRow>
        </TableHeader>
        <TableBody>
          {rows.map((row) => (
            <TableRow key={row.line}>
              <TableCell label="Line" className="tabular-nums">
                {row.line}
              </TableCell>
              <TableCell label="ID">{row.id === null ? '—' : <Identifier value={row.id} />}</TableCell>
              <TableCell label="What is wrong">
                <ProblemText text={row.text} />
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </section>
  );
}

/** A row refused for its token's standing reads as the identify page does: the badge, then why. */
export function ProblemText({ text }: { text: string }) {
  const standing = problemStanding(text);
  if (!standing) return text;
  return (
    <span className="flex flex-wrap items-baseline gap-x-2 gap-y-1">
      <StandingBadge standing={standing.standing} />
      <span>{standing.rest.charAt(0).toUpperCase() + standing.rest.slice(1)}</span>
    </span>
  );
}
