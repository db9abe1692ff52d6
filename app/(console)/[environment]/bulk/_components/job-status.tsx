import { Badge } from '@/components/ui/badge';
import type { JobView } from '@/lib/jobs/contract';

const looks: Record<
  JobView['status'],
  { label: string; variant: 'neutral' | 'success' | 'info' | 'danger' }
> = {
  draft: { label: 'Checked, not started', variant: 'neutral' },
  running: { label: 'Running', variant: 'info' },
  paused: { label: 'Paused', variant: 'neutral' },
  cancelled: { label: 'Cancelled', variant: 'danger' },
  finished: { label: 'Finished', variant: 'success' },
};

export function JobStatusBadge({ status }: { status: JobView['status'] }) {
  const look = looks[status];
  return (
    <Badge variant={look.variant} data-testid="job-status">
      {look.label}
    </Badge>
  );
}

export const jobTitle = (kind: JobView['kind'], source: string) =>
  `${kind === 'rotate' ? 'Rotate tokens' : 'Get or create'} — ${source}`;
