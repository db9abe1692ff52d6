import { StandingBadge } from '@/components/token-standing-badge';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { routePath } from '@/lib/console-api/define-route';
import { type Environment, slugOf } from '@/lib/environments';
import type { RotationPreview } from '@/lib/jobs/rotation-preview';
import { jobRoutes } from '@/lib/jobs/routes';
import { plural } from '@/lib/plural';
import { GroupIdCell } from './group-id-cell';

type RotationPreviewProps = { jobId: string; environment: Environment; preview: RotationPreview };

/**
 * Before a rotation runs: the first groups it will rotate, by id and name, with the fingerprint of
 * each token to replace (never the token) and whether it is the group's current one (an unknown
 * token is here only when the person chose to send it), how many more, and all of them as a CSV.
 * Replaced and deleted ones are rows with a problem, never in the run.
 */
export function RotationPreviewTable({ jobId, environment, preview }: RotationPreviewProps) {
  const more = preview.total - preview.rows.length;
  const slug = slugOf[environment];
  return (
    <section aria-labelledby="rotation-preview-heading" className="flex flex-col gap-2">
      <h2 id="rotation-preview-heading" className="text-base font-semibold">
        Groups to rotate
      </h2>
      <Table label="Groups to rotate, table" className="min-w-[32rem]" data-testid="rotation-preview">
        <TableHeader>
          <TableRow>
            <TableHead>Line</TableHead>
            <TableHead>User group</TableHead>
            <TableHead>Name</TableHead>
            <TableHead>Token fingerprint</TableHead>
            <TableHead>Token</TableHead>
          </TableRow>
        </TableHeader>
        <TableBody>
          {preview.rows.map((row) => (
            <TableRow key={row.line}>
              <TableCell label="Line" className="tabular-nums">
                {row.line}
              </TableCell>
              <TableCell label="User group">
                <GroupIdCell slug={slug} userGroupId={row.userGroupId ?? null} />
              </TableCell>
              <TableCell label="Name" className="wrap-anywhere">
                {row.name ?? '—'}
              </TableCell>
              <TableCell label="Token fingerprint" className="font-mono text-xs">
                {row.tokenFingerprint ?? '—'}
              </TableCell>
              <TableCell label="Token">
                {/* Only a current token, or an unknown one sent on purpose, is in the run. */}
                <StandingBadge standing={row.userGroupId ? 'current' : 'unknown'} />
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
      <div className="flex flex-wrap items-center gap-x-4 gap-y-2 text-sm">
        {more > 0 ? <p data-testid="rotation-preview-more">and {more.toLocaleString('en-US')} more</p> : null}
        <a
          href={routePath(jobRoutes.jobPreview, { id: jobId })}
          download
          className="inline-flex h-9 items-center rounded-md border border-border bg-card px-4 text-sm font-medium hover:bg-muted"
        >
          Download the list ({plural(preview.total, 'row')}, CSV)
        </a>
      </div>
    </section>
  );
}
