import Link from 'next/link';
import { consoleRoutes, routePath } from '@/lib/console-api/routes';
import { type Environment, slugOf } from '@/lib/environments';
import type { RotationPreview } from '@/lib/jobs/rotation-preview';
import { plural } from '@/lib/plural';
import { groupPath } from '../../_components/paths';

type RotationPreviewProps = { jobId: string; environment: Environment; preview: RotationPreview };

/**
 * Before a rotation runs: the first groups it will rotate, by id and name, with the fingerprint of
 * each token to replace (never the token), how many more, and all of them as a CSV.
 */
export function RotationPreviewTable({ jobId, environment, preview }: RotationPreviewProps) {
  const more = preview.total - preview.rows.length;
  const slug = slugOf[environment];
  return (
    <section aria-labelledby="rotation-preview-heading" className="flex flex-col gap-2">
      <h2 id="rotation-preview-heading" className="text-base font-semibold">
        Groups to rotate
      </h2>
      <section
        className="overflow-x-auto rounded-lg border border-border bg-card"
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a region that scrolls sideways must be reachable from the keyboard (axe scrollable-region-focusable)
        tabIndex={0}
        aria-label="Groups to rotate, table"
      >
        <table className="w-full min-w-[32rem] text-sm" data-testid="rotation-preview">
          <thead className="border-b border-border text-left text-xs text-muted-foreground">
            <tr>
              <th scope="col" className="px-3 py-2 font-medium">
                Line
              </th>
              <th scope="col" className="px-3 py-2 font-medium">
                User group
              </th>
              <th scope="col" className="px-3 py-2 font-medium">
                Name
              </th>
              <th scope="col" className="px-3 py-2 font-medium">
                Token fingerprint
              </th>
            </tr>
          </thead>
          <tbody>
            {preview.rows.map((row) => (
              <tr key={row.line} className="border-b border-border last:border-0">
                <td className="px-3 py-2 tabular-nums">{row.line}</td>
                <td className="px-3 py-2 wrap-anywhere">
                  {row.userGroupId ? (
                    <Link
                      href={groupPath(slug, row.userGroupId)}
                      className="font-mono underline underline-offset-4"
                    >
                      {row.userGroupId}
                    </Link>
                  ) : (
                    <span className="text-muted-foreground italic">not known to the console</span>
                  )}
                </td>
                <td className="px-3 py-2 wrap-anywhere">{row.name ?? '—'}</td>
                <td className="px-3 py-2 font-mono text-xs">{row.tokenFingerprint ?? '—'}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </section>
      <div className="flex flex-wrap items-center gap-x-4 gap-y-2 text-sm">
        {more > 0 ? <p data-testid="rotation-preview-more">and {more.toLocaleString('en-US')} more</p> : null}
        <a
          href={routePath(consoleRoutes.jobPreview, { id: jobId })}
          download
          className="inline-flex h-9 items-center rounded-md border border-border bg-card px-4 text-sm font-medium hover:bg-muted"
        >
          Download the list ({plural(preview.total, 'row')}, CSV)
        </a>
      </div>
    </section>
  );
}
